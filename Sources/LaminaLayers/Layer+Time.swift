import LaminaAnimation
import LaminaGeometry
import LaminaRaster

extension Layer {
    // MARK: Layer time (rule 2)

    /// When the layer's time starts, in its superlayer's time (media time for a root).
    public var beginTime: Double {
        get { properties.beginTime }
        set { mutate("beginTime") { $0.beginTime = newValue } }
    }

    /// How fast the layer's time runs against its superlayer's; 0 freezes the layer and every
    /// animation in its subtree, negative runs them backwards.
    public var speed: Double {
        get { properties.speed }
        set { mutate("speed") { $0.speed = newValue } }
    }

    /// Added to the layer's time (the "paused at" value of the pause idiom, rule 3).
    public var timeOffset: Double {
        get { properties.timeOffset }
        set { mutate("timeOffset") { $0.timeOffset = newValue } }
    }

    /// This layer's time for its superlayer's time `t`: `(t − beginTime) · speed + timeOffset`.
    public func localTime(fromSuperlayerTime t: Double) -> Double {
        (t - properties.beginTime) * properties.speed + properties.timeOffset
    }

    /// The superlayer's time for this layer's time `t`; a speed of 0 is inverted as 0 so the
    /// result stays finite (rule 2, Lamina choice).
    public func superlayerTime(fromLocalTime t: Double) -> Double {
        let inverse = properties.speed == 0 ? 0 : 1 / properties.speed
        return (t - properties.timeOffset) * inverse + properties.beginTime
    }

    /// Media time → this layer's time, through every ancestor from the root down.
    func localTime(fromMediaTime t: Double) -> Double {
        let parentTime = superlayer.map { $0.localTime(fromMediaTime: t) } ?? t
        return localTime(fromSuperlayerTime: parentTime)
    }

    /// This layer's time → media time, through every ancestor up to the root.
    func mediaTime(fromLocalTime t: Double) -> Double {
        let parentTime = superlayerTime(fromLocalTime: t)
        return superlayer.map { $0.mediaTime(fromLocalTime: parentTime) } ?? parentTime
    }

    /// Converts `t` from `layer`'s time (nil: media time) into this layer's time
    /// (`CALayer.convertTime(_:from:)`); layers in different trees meet at media time.
    public func convertTime(_ t: Double, from layer: Layer?) -> Double {
        localTime(fromMediaTime: layer?.mediaTime(fromLocalTime: t) ?? t)
    }

    /// Converts `t` from this layer's time into `layer`'s time (nil: media time).
    public func convertTime(_ t: Double, to layer: Layer?) -> Double {
        let media = mediaTime(fromLocalTime: t)
        return layer?.localTime(fromMediaTime: media) ?? media
    }
}
