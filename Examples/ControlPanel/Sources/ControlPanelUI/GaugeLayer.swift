import Lamina

/// A round gauge drawn by its own code: a 270° track, the value's arc over it in a colour
/// from cool to hot, and a tick every sixth of the range. It redraws only when `fraction`
/// changes (`setNeedsDisplay()`); every other frame composites the cached drawing.
public final class GaugeLayer: Layer {
    /// Where the value sits in its range, 0…1.
    public var fraction = 0.0 {
        didSet {
            let clamped = min(max(fraction.isFinite ? fraction : 0, 0), 1)
            if clamped != fraction { fraction = clamped }
            if fraction != oldValue { setNeedsDisplay() }
        }
    }

    public var trackColor = Color(red8: 0x2A, green8: 0x2F, blue8: 0x3A)
    public var coolColor = Color(red8: 0x38, green8: 0xBD, blue8: 0xF8)
    public var hotColor = Color(red8: 0xF9, green8: 0x73, blue8: 0x16)
    public var lineWidth = 18.0

    public override init() {
        super.init()
        needsDisplayOnBoundsChange = true
    }

    /// The arc starts at the lower left (135°) and sweeps clockwise on screen through the top.
    static let startAngle = 0.75 * Double.pi
    static let sweep = 1.5 * Double.pi

    public override func draw(in canvas: Canvas) {
        let size = bounds.size
        let center = Point(x: size.width / 2, y: size.height / 2)
        let radius = min(size.width, size.height) / 2 - lineWidth
        guard radius > 0 else { return }
        let style = StrokeStyle(width: lineWidth, cap: .round)

        var track = Path()
        track.addArc(center: center, radius: radius, startAngle: Self.startAngle,
                     endAngle: Self.startAngle + Self.sweep, clockwise: true)
        canvas.stroke(track, style: style, color: trackColor)

        if fraction > 0 {
            var value = Path()
            value.addArc(center: center, radius: radius, startAngle: Self.startAngle,
                         endAngle: Self.startAngle + Self.sweep * fraction, clockwise: true)
            canvas.stroke(value, style: style, color: coolColor.interpolated(to: hotColor, by: fraction))
        }

        for tick in 0...6 {
            let angle = Self.startAngle + Self.sweep * Double(tick) / 6
            let inner = radius - lineWidth, outer = radius - lineWidth * 0.55
            var mark = Path()
            mark.move(to: Point(onCircleAround: center, radius: inner, angle: angle))
            mark.line(to: Point(onCircleAround: center, radius: outer, angle: angle))
            canvas.stroke(mark, style: StrokeStyle(width: 2, cap: .round), color: trackColor.interpolated(to: .white, by: 0.4))
        }
    }
}
