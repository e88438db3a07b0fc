#if canImport(Glibc)
import Glibc
#endif
import LaminaGeometry

/// Bad SVG path data: where (a character offset into the string) and why.
public struct SVGPathError: Error, Equatable, CustomStringConvertible {
    /// Where in the path data, in characters from the start.
    public var offset: Int
    /// What is wrong there.
    public var reason: String
    public var description: String { "offset \(offset): \(reason)" }
}

extension Path {
    /// Parses SVG path data (`d`): M L H V C S Q T A Z in absolute and relative forms, with
    /// implicit repeated commands, numbers that run together (`1.5.5`, `10-5`) and single-
    /// character arc flags. Elliptical arcs become cubic pieces (SVG 1.1 appendix F.6, with
    /// out-of-range radii scaled up). Every number, and every point after relative moves add
    /// up, must lie within ±`coordinateLimit` (scene files: 10⁷; by default any finite number,
    /// the rasterizer clips what lies off the canvas). An error names the offset of the bad input.
    public init(svgPathData text: String, coordinateLimit: Double = .greatestFiniteMagnitude) throws(SVGPathError) {
        self.init()
        var scanner = SVGScanner(Array(text.utf8))
        var command: UInt8?
        var lastControl: Point?              // for S/T reflection
        var lastCommand: UInt8 = 0
        scanner.skipSeparators()
        if !scanner.atEnd, !SVGScanner.isCommand(scanner.peek!) {
            throw SVGPathError(offset: scanner.index, reason: "path data must start with a command")
        }
        while true {
            scanner.skipSeparators()
            if scanner.atEnd { break }
            if let c = scanner.peek, SVGScanner.isCommand(c) {
                command = c
                scanner.index += 1
            } else if command == nil || command == UInt8(ascii: "Z") || command == UInt8(ascii: "z") {
                throw SVGPathError(offset: scanner.index, reason: "expected a command letter")
            }
            guard let cmd = command else { break }
            let relative = cmd >= UInt8(ascii: "a")
            let origin = relative ? (currentPoint ?? .zero) : .zero
            func checked(_ value: Double, at offset: Int) throws(SVGPathError) -> Double {
                guard abs(value) <= coordinateLimit else {
                    throw SVGPathError(offset: offset, reason: "a coordinate beyond ±\(Int(coordinateLimit)) (after relative moves add up)")
                }
                return value
            }
            func point() throws(SVGPathError) -> Point {
                let at = scanner.index
                let x = try scanner.number(), y = try scanner.number()
                return Point(x: try checked(origin.x + x, at: at), y: try checked(origin.y + y, at: at))
            }
            let upper = relative ? cmd - 32 : cmd
            switch upper {
            case UInt8(ascii: "M"):
                move(to: try point())
                command = relative ? UInt8(ascii: "l") : UInt8(ascii: "L")   // further pairs are lines
                lastControl = nil
            case UInt8(ascii: "L"):
                line(to: try point())
                lastControl = nil
            case UInt8(ascii: "H"):
                let at = scanner.index
                let x = try checked((relative ? origin.x : 0) + scanner.number(), at: at)
                line(to: Point(x: x, y: currentPoint?.y ?? 0))
                lastControl = nil
            case UInt8(ascii: "V"):
                let at = scanner.index
                let y = try checked((relative ? origin.y : 0) + scanner.number(), at: at)
                line(to: Point(x: currentPoint?.x ?? 0, y: y))
                lastControl = nil
            case UInt8(ascii: "C"):
                let c1 = try point(), c2 = try point(), p = try point()
                cubic(to: p, control1: c1, control2: c2)
                lastControl = c2
            case UInt8(ascii: "S"):
                let c2 = try point(), p = try point()
                let current = currentPoint ?? .zero
                let reflect = (lastCommand == UInt8(ascii: "C") || lastCommand == UInt8(ascii: "S")) ? lastControl : nil
                let c1 = reflect.map { 2 * current - $0 } ?? current
                cubic(to: p, control1: c1, control2: c2)
                lastControl = c2
            case UInt8(ascii: "Q"):
                let c = try point(), p = try point()
                quad(to: p, control: c)
                lastControl = c
            case UInt8(ascii: "T"):
                let p = try point()
                let current = currentPoint ?? .zero
                let reflect = (lastCommand == UInt8(ascii: "Q") || lastCommand == UInt8(ascii: "T")) ? lastControl : nil
                let c = reflect.map { 2 * current - $0 } ?? current
                quad(to: p, control: c)
                lastControl = c
            case UInt8(ascii: "A"):
                let at = scanner.index
                let rx = try checked(scanner.number(), at: at), ry = try checked(scanner.number(), at: at)
                let rotation = try scanner.number()
                let large = try scanner.flag(), sweep = try scanner.flag()
                let p = try point()
                addSVGArc(to: p, rx: rx, ry: ry, rotationDegrees: rotation, largeArc: large, sweep: sweep)
                lastControl = nil
            case UInt8(ascii: "Z"):
                close()
                lastControl = nil
            default:
                throw SVGPathError(offset: scanner.index - 1, reason: "unknown command")
            }
            lastCommand = upper
        }
    }

    /// An SVG elliptical arc from the current point to `end` (F.6.5 centre parameterisation).
    mutating func addSVGArc(to end: Point, rx rxIn: Double, ry ryIn: Double, rotationDegrees: Double,
                            largeArc: Bool, sweep: Bool) {
        guard let start = currentPoint else { return move(to: end) }
        if start == end { return }
        var rx = abs(rxIn), ry = abs(ryIn)
        if rx == 0 || ry == 0 { return line(to: end) }
        // Radii so large that squaring them overflows (or infinite, or a NaN anywhere): the
        // centre is solved with everything divided by the larger radius, and an arc that
        // still cannot be placed is the straight line F.6.6 makes of a degenerate one.
        let scale = max(rx, ry)
        let phi = rotationDegrees * .pi / 180
        guard scale.isFinite, phi.isFinite, start.x.isFinite, start.y.isFinite, end.x.isFinite, end.y.isFinite else {
            return line(to: end)
        }
        rx /= scale
        ry /= scale
        let cosPhi = cos(phi), sinPhi = sin(phi)
        let dx = (start.x - end.x) / 2, dy = (start.y - end.y) / 2
        let x1 = (cosPhi * dx + sinPhi * dy) / scale, y1 = (-sinPhi * dx + cosPhi * dy) / scale
        let lambda = (x1 * x1) / (rx * rx) + (y1 * y1) / (ry * ry)
        if lambda > 1 { rx *= lambda.squareRoot(); ry *= lambda.squareRoot() }
        let numerator = rx * rx * ry * ry - rx * rx * y1 * y1 - ry * ry * x1 * x1
        let denominator = rx * rx * y1 * y1 + ry * ry * x1 * x1
        guard denominator > 0 else { return line(to: end) }
        var factor = (max(0, numerator) / denominator).squareRoot()
        if largeArc == sweep { factor = -factor }
        var cx1 = factor * rx * y1 / ry, cy1 = -factor * ry * x1 / rx
        // The angles use only ratios, so they are taken in the scaled units; then the radii
        // and the centre go back to user units.
        func angle(_ ux: Double, _ uy: Double, _ vx: Double, _ vy: Double) -> Double {
            atan2(ux * vy - uy * vx, ux * vx + uy * vy)
        }
        let ux = (x1 - cx1) / rx, uy = (y1 - cy1) / ry
        let theta1 = angle(1, 0, ux, uy)
        var delta = angle(ux, uy, (-x1 - cx1) / rx, (-y1 - cy1) / ry)
        rx *= scale
        ry *= scale
        cx1 *= scale
        cy1 *= scale
        guard rx.isFinite, ry.isFinite, cx1.isFinite, cy1.isFinite else { return line(to: end) }
        let cx = cosPhi * cx1 - sinPhi * cy1 + (start.x + end.x) / 2
        let cy = sinPhi * cx1 + cosPhi * cy1 + (start.y + end.y) / 2
        if !sweep && delta > 0 { delta -= 2 * .pi }
        if sweep && delta < 0 { delta += 2 * .pi }
        let pieces = max(1, min(Int(saturating: (abs(delta) / (Double.pi / 2) - 1e-12).rounded(.up)), 256))
        let step = delta / Double(pieces)
        let k = 4.0 / 3 * tan(step / 4)
        func map(_ ux: Double, _ uy: Double) -> Point {
            Point(x: cx + rx * ux * cosPhi - ry * uy * sinPhi, y: cy + rx * ux * sinPhi + ry * uy * cosPhi)
        }
        var a = theta1
        var pieceList: [(to: Point, control1: Point, control2: Point)] = []
        for i in 0..<pieces {
            let b = a + step
            let (c0, s0, c1, s1) = (cos(a), sin(a), cos(b), sin(b))
            let to = i == pieces - 1 ? end : map(c1, s1)
            pieceList.append((to, map(c0 - k * s0, s0 + k * c0), map(c1 + k * s1, s1 - k * c1)))
            a = b
        }
        let finite = pieceList.allSatisfy { [$0.to, $0.control1, $0.control2].allSatisfy { $0.x.isFinite && $0.y.isFinite } }
        guard finite else { return line(to: end) }
        for piece in pieceList { cubic(to: piece.to, control1: piece.control1, control2: piece.control2) }
    }

    /// The path as SVG path data with absolute commands (M L Q C Z), numbers in shortest
    /// round-tripping form: parsing it gives back the same elements.
    public var svgPathData: String {
        func n(_ v: Double) -> String {
            v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : "\(v)"
        }
        func p(_ q: Point) -> String { "\(n(q.x)) \(n(q.y))" }
        return elements.map { e in
            switch e {
            case .move(let q): return "M\(p(q))"
            case .line(let q): return "L\(p(q))"
            case .quad(let c, let q): return "Q\(p(c)) \(p(q))"
            case .cubic(let c1, let c2, let q): return "C\(p(c1)) \(p(c2)) \(p(q))"
            case .close: return "Z"
            }
        }.joined(separator: " ")
    }
}

/// Reads numbers, flags and separators from SVG path data.
struct SVGScanner {
    let bytes: [UInt8]
    var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var atEnd: Bool { index >= bytes.count }
    var peek: UInt8? { atEnd ? nil : bytes[index] }

    static func isCommand(_ c: UInt8) -> Bool {
        Array("MmLlHhVvCcSsQqTtAaZz".utf8).contains(c)
    }

    static func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D || c == 0x0C }

    mutating func skipSeparators() {
        while let c = peek, Self.isSpace(c) || c == UInt8(ascii: ",") { index += 1 }
    }

    /// A number: sign, digits, optional fraction, optional exponent.
    mutating func number() throws(SVGPathError) -> Double {
        skipSeparators()
        let start = index
        if let c = peek, c == UInt8(ascii: "+") || c == UInt8(ascii: "-") { index += 1 }
        var digits = 0
        while let c = peek, c >= 0x30 && c <= 0x39 { index += 1; digits += 1 }
        if peek == UInt8(ascii: ".") {
            index += 1
            while let c = peek, c >= 0x30 && c <= 0x39 { index += 1; digits += 1 }
        }
        guard digits > 0 else {
            index = start
            throw SVGPathError(offset: start, reason: atEnd ? "a number is missing at the end" : "expected a number")
        }
        if let c = peek, c == UInt8(ascii: "e") || c == UInt8(ascii: "E") {
            let mark = index
            index += 1
            if let s = peek, s == UInt8(ascii: "+") || s == UInt8(ascii: "-") { index += 1 }
            var exponentDigits = 0
            while let d = peek, d >= 0x30 && d <= 0x39 { index += 1; exponentDigits += 1 }
            if exponentDigits == 0 { index = mark }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            throw SVGPathError(offset: start, reason: "'\(text)' is not a finite number")
        }
        return value
    }

    /// An arc flag: a single 0 or 1.
    mutating func flag() throws(SVGPathError) -> Bool {
        skipSeparators()
        guard let c = peek, c == UInt8(ascii: "0") || c == UInt8(ascii: "1") else {
            throw SVGPathError(offset: index, reason: "an arc flag must be 0 or 1")
        }
        index += 1
        return c == UInt8(ascii: "1")
    }
}
