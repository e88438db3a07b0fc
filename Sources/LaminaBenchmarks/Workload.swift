import LaminaSystem
import FoundationEssentials
import LaminaGeometry
import LaminaRaster

/// Why a workload file could not be used.
public struct WorkloadError: Error, CustomStringConvertible {
    public var file: String
    public var reason: String
    public var description: String { "\(file): \(reason)" }
}

/// The rasterizer benchmark workloads of `../shared/bench` (`raster-bench-workloads/1`):
/// every frame clears to `background` and draws `ops` src-over, at the workload's size.
public struct WorkloadFile {
    public var workloads: [Workload]
    /// Images by name, premultiplied, built from their recipes.
    public var images: [String: PixelBuffer] = [:]
    /// Font files by name: the first of each font's search paths that exists.
    public var fontPaths: [String: String] = [:]

    /// Decodes a workload file; an unknown format, op or malformed field is an error that
    /// names the workload and op index.
    public init(path: String) throws(WorkloadError) {
        let data: [UInt8]
        do {
            data = try InputFile.bytes(atPath: path, limit: 64 * 1024 * 1024)
        } catch {
            throw WorkloadError(file: path, reason: "cannot be read: \(error)")
        }
        let root: [String: Any]
        do {
            guard let object = try JSONDocument.parse(data) as? [String: Any] else {
                throw WorkloadError(file: path, reason: "the top level is not an object")
            }
            root = object
        } catch let error as WorkloadError {
            throw error
        } catch {
            throw WorkloadError(file: path, reason: "not JSON: \(error)")
        }
        guard root["format"] as? String == "raster-bench-workloads/1" else {
            throw WorkloadError(file: path, reason: "format is not raster-bench-workloads/1")
        }
        guard let list = root["workloads"] as? [[String: Any]] else {
            throw WorkloadError(file: path, reason: "no workloads list")
        }
        do {
            workloads = try list.map { try Workload(json: $0) }
        } catch {
            throw WorkloadError(file: path, reason: "\(error)")
        }
        for (name, spec) in root["fonts"] as? [String: [String: Any]] ?? [:] {
            let candidates = spec["search_paths"] as? [String] ?? []
            if let found = candidates.first(where: { FileManager.default.fileExists(atPath: $0) }) { fontPaths[name] = found }
        }
        for (name, spec) in root["images"] as? [String: [String: Any]] ?? [:] {
            guard spec["recipe"] as? String == "checker-gradient-v1", spec["width"] as? Int == 256,
                  spec["height"] as? Int == 256 else {
                throw WorkloadError(file: path, reason: "image \(name): only the 256x256 checker-gradient-v1 recipe is known")
            }
            images[name] = Self.checkerGradient()
        }
    }

    /// Recipe `checker-gradient-v1`, 256x256: for column x and row y, c = ((x >> 5) ^ (y >> 5)) & 1,
    /// R = x, G = y, B = c ? 255 : 64, A = c ? 255 : 192 (straight), premultiplied as
    /// round(C · A / 255).
    public static func checkerGradient() -> PixelBuffer {
        var bytes = [UInt8](repeating: 0, count: 256 * 256 * 4)
        for y in 0..<256 {
            for x in 0..<256 {
                let c = ((x >> 5) ^ (y >> 5)) & 1
                let i = (y * 256 + x) * 4
                bytes[i] = UInt8(x); bytes[i + 1] = UInt8(y)
                bytes[i + 2] = c == 1 ? 255 : 64; bytes[i + 3] = c == 1 ? 255 : 192
            }
        }
        return PixelBuffer(rgba: RGBAImage(width: 256, height: 256, bytes: bytes))
    }
}

/// One workload: a size, a background and a list of drawing operations.
public struct Workload {
    public var id: String
    public var name: String
    public var width: Int
    public var height: Int
    public var background: Color
    /// Features the workload needs beyond fills (`"text"`).
    public var requires: [String]
    public var ops: [Op]

    /// A drawing operation, with geometry already built (as a retained layer tree holds it).
    public enum Op {
        case fill(Path, FillRule, Color)
        case stroke(Path, StrokeStyle, Color)
        case drawImage(name: String, transform: LaminaGeometry.AffineTransform, opacity: Double)
        case drawText(font: String, size: Double, origin: Point, text: String, color: Color)

        /// The feature this op needs that fills alone do not give.
        var feature: String? {
            switch self {
            case .fill: return nil
            case .stroke: return "stroke"
            case .drawImage: return "image"
            case .drawText: return "text"
            }
        }
    }

    /// Features the ops need beyond fills.
    public var neededFeatures: Set<String> {
        Set(ops.compactMap(\.feature)).union(requires)
    }

    struct FieldError: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    init(json: [String: Any]) throws {
        func fail(_ m: String) -> FieldError { FieldError(message: m) }
        guard let id = json["id"] as? String, let name = json["name"] as? String else { throw fail("a workload lacks id or name") }
        guard let width = json["width"] as? Int, let height = json["height"] as? Int, width > 0, height > 0 else {
            throw fail("\(id): width and height must be positive integers")
        }
        let limit = GeometryLimits.maximumDimension
        guard width <= limit, height <= limit, width * height <= GeometryLimits.maximumPixels else {
            throw fail("\(id): \(width)x\(height) is larger than \(limit)x\(limit) or \(GeometryLimits.maximumPixels) pixels")
        }
        self.id = id
        self.name = name
        self.width = width
        self.height = height
        background = try Self.color(json["background"], "\(id).background")
        requires = json["requires"] as? [String] ?? []
        let opList = json["ops"] as? [[String: Any]] ?? []
        ops = try opList.enumerated().map { index, op in try Self.op(op, where: "\(id).ops[\(index)]") }
    }

    static func color(_ value: Any?, _ where_: String, opacity: Double = 1) throws -> Color {
        guard let c = value as? [Any], c.count == 4, let r = c[0] as? Int, let g = c[1] as? Int, let b = c[2] as? Int,
              let a = c[3] as? Int, [r, g, b, a].allSatisfy({ (0...255).contains($0) }) else {
            throw FieldError(message: "\(where_): a colour is [r, g, b, a] with integers 0…255")
        }
        return Color(red8: UInt8(r), green8: UInt8(g), blue8: UInt8(b), alpha8: UInt8(a)).multiplyingAlpha(by: opacity)
    }

    static func numbers(_ value: Any?, count: Int? = nil, _ where_: String) throws -> [Double] {
        guard let list = value as? [Any] else { throw FieldError(message: "\(where_): expected a list of numbers") }
        let numbers = list.compactMap(JSONDocument.number)
        guard numbers.count == list.count, numbers.allSatisfy(\.isFinite), count == nil || numbers.count == count else {
            throw FieldError(message: "\(where_): expected \(count.map(String.init) ?? "some") finite numbers")
        }
        return numbers
    }

    static func path(_ value: Any?, _ where_: String) throws -> Path {
        guard let p = value as? [String: Any], let verbs = p["verbs"] as? String else {
            throw FieldError(message: "\(where_).path: needs verbs and coords")
        }
        let coords = try numbers(p["coords"], "\(where_).path.coords")
        var path = Path()
        var i = 0
        func take(_ n: Int) throws -> [Double] {
            guard i + n <= coords.count else { throw FieldError(message: "\(where_).path: too few coords for the verbs") }
            defer { i += n }
            return Array(coords[i..<(i + n)])
        }
        for verb in verbs {
            switch verb {
            case "M": let c = try take(2); path.move(to: Point(x: c[0], y: c[1]))
            case "L": let c = try take(2); path.line(to: Point(x: c[0], y: c[1]))
            case "Q": let c = try take(4); path.quad(to: Point(x: c[2], y: c[3]), control: Point(x: c[0], y: c[1]))
            case "C":
                let c = try take(6)
                path.cubic(to: Point(x: c[4], y: c[5]), control1: Point(x: c[0], y: c[1]), control2: Point(x: c[2], y: c[3]))
            case "Z": path.close()
            default: throw FieldError(message: "\(where_).path: unknown verb '\(verb)'")
            }
        }
        guard i == coords.count else { throw FieldError(message: "\(where_).path: \(coords.count - i) coords left over") }
        return path
    }

    /// A number field within `range` (finite by construction), or `fallback` when absent.
    static func number(_ json: [String: Any], _ key: String, in range: ClosedRange<Double>, default fallback: Double? = nil,
                       _ where_: String) throws -> Double {
        guard let value = json[key] else {
            if let fallback { return fallback }
            throw FieldError(message: "\(where_).\(key) missing")
        }
        guard let number = JSONDocument.number(value), range.contains(number) else {
            throw FieldError(message: "\(where_).\(key): expected a number in \(range.lowerBound)…\(range.upperBound)")
        }
        return number
    }

    /// Lengths (radii, stroke widths) and coordinates a workload may use: within the
    /// geometry limit (decision 86).
    static let lengths = 0...GeometryLimits.coordinate

    static func op(_ json: [String: Any], where where_: String) throws -> Op {
        let opacity = try number(json, "opacity", in: 0...1, default: 1, where_)
        switch json["op"] as? String {
        case "fill_path":
            let rule: FillRule
            switch json["fill_rule"] as? String ?? "nonzero" {
            case "nonzero": rule = .nonZero
            case "evenodd": rule = .evenOdd
            default: throw FieldError(message: "\(where_).fill_rule: nonzero or evenodd")
            }
            return .fill(try path(json["path"], where_), rule, try color(json["color"], where_, opacity: opacity))
        case "fill_rect":
            let r = try numbers(json["rect"], count: 4, "\(where_).rect")
            return .fill(Path(rect: Rect(x: r[0], y: r[1], width: r[2], height: r[3])), .nonZero,
                         try color(json["color"], where_, opacity: opacity))
        case "fill_rrect":
            let r = try numbers(json["rect"], count: 4, "\(where_).rect")
            let radius = try number(json, "radius", in: lengths, where_)
            return .fill(Path(roundedRect: Rect(x: r[0], y: r[1], width: r[2], height: r[3]), cornerRadius: radius), .nonZero,
                         try color(json["color"], where_, opacity: opacity))
        case "fill_circle":
            let c = try numbers(json["center"], count: 2, "\(where_).center")
            let radius = try number(json, "radius", in: lengths, where_)
            return .fill(Path(circleCenter: Point(x: c[0], y: c[1]), radius: radius), .nonZero,
                         try color(json["color"], where_, opacity: opacity))
        case "stroke_path":
            let width = try number(json, "width", in: lengths, where_)
            guard let cap = LineCap(rawValue: json["cap"] as? String ?? ""),
                  let join = LineJoin(rawValue: json["join"] as? String ?? "") else {
                throw FieldError(message: "\(where_): a stroke needs width, cap (butt|round|square) and join (miter|round|bevel)")
            }
            let style = StrokeStyle(width: width, cap: cap, join: join,
                                    miterLimit: try number(json, "miter_limit", in: 1...1e6, default: 10, where_))
            return .stroke(try path(json["path"], where_), style, try color(json["color"], where_, opacity: opacity))
        case "draw_image":
            let t = try numbers(json["transform"], count: 6, "\(where_).transform")
            guard let image = json["image"] as? String else { throw FieldError(message: "\(where_).image missing") }
            return .drawImage(name: image, transform: LaminaGeometry.AffineTransform(a: t[0], b: t[1], c: t[2], d: t[3], tx: t[4], ty: t[5]),
                              opacity: opacity)
        case "draw_text":
            let o = try numbers(json["origin"], count: 2, "\(where_).origin")
            guard let font = json["font"] as? String, let text = json["text"] as? String else {
                throw FieldError(message: "\(where_): text needs font, size and text")
            }
            let size = try number(json, "size", in: Font.sizes, where_)
            guard text.unicodeScalars.count <= Font.maximumRunLength else {
                throw FieldError(message: "\(where_).text: longer than \(Font.maximumRunLength) characters")
            }
            return .drawText(font: font, size: size, origin: Point(x: o[0], y: o[1]), text: text,
                             color: try color(json["color"], where_, opacity: opacity))
        case let other:
            throw FieldError(message: "\(where_): unknown op '\(other ?? "nil")'")
        }
    }
}
