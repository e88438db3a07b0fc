import LaminaAnimation
import LaminaGeometry
import LaminaRaster

/// Flip-book animation of images (`UIImageView.animationImages`, rule 69): while animating,
/// frame ⌊t·n/d⌋ mod n of the `animationImages` shows; otherwise `image`.
public final class ImageSequenceLayer: Layer {
    /// The frames, shown in order.
    public var animationImages: [PixelBuffer] = []
    /// Seconds for one pass over the frames; 0 means 1/30 s per frame.
    public var animationDuration = 0.0
    /// Passes to play; 0 plays forever.
    public var animationRepeatCount = 0
    /// Whether the images are cycling.
    public private(set) var isAnimating = false

    /// A layer with no images.
    public override init() { super.init() }

    /// The still image shown when not animating (the layer's `contents`).
    public var image: PixelBuffer? {
        get { contents }
        set {
            Transaction.begin()
            Transaction.disableActions = true
            contents = newValue
            Transaction.commit()
        }
    }

    /// Starts the flip-book at the next frame.
    public func startAnimating() {
        guard !animationImages.isEmpty else { return }
        let n = animationImages.count
        let duration = animationDuration > 0 ? animationDuration : Double(n) / 30
        var frames = BasicAnimation(keyPath: "sequenceFrame",
                                    keyframes: Keyframes(values: (0..<n).map { .scalar(Double($0)) }, calculationMode: .discrete),
                                    duration: duration)
        frames.timing.repeatCount = animationRepeatCount == 0 ? .infinity : Double(animationRepeatCount)
        isAnimating = true
        add(frames, forKey: "animationImages") { [weak self] _ in self?.isAnimating = false }
    }

    /// Stops it; `image` shows again.
    public func stopAnimating() {
        isAnimating = false
        removeAnimation(forKey: "animationImages")
    }

    public override func makePresentationCopy() -> Layer {
        let copy = ImageSequenceLayer()
        copy.properties = properties
        copy.animationImages = animationImages
        return copy
    }

    public override func value(forKeyPath keyPath: String) -> AnimatableValue? {
        keyPath == "sequenceFrame" ? .scalar(-1) : super.value(forKeyPath: keyPath)
    }

    @discardableResult
    public override func applyAnimatedValue(_ value: AnimatableValue, forKeyPath keyPath: String) -> Bool {
        guard keyPath == "sequenceFrame" else { return super.applyAnimatedValue(value, forKeyPath: keyPath) }
        if case .scalar(let v) = value, v >= 0, Int(v) < animationImages.count {
            properties.contents = animationImages[Int(v)]
        }
        return true
    }
}
