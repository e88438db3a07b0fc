import Lamina
import LaminaDisplay
import LaminaGeometry
import LaminaLayers

extension Runtime {
    /// Adds a layer at `frame` whose colour changes on every display-link call (actions off),
    /// so every vblank needs a new frame and a flip; `onFrame` runs first with the link.
    /// Pause or invalidate the returned link to let the runtime settle.
    public func addFlickeringLayer(frame: Rect, onFrame: ((DisplayLink) -> Void)? = nil) -> DisplayLink {
        let layer = Layer()
        layer.frame = frame
        layer.backgroundColor = .white
        rootLayer.addSublayer(layer)
        var count = 0
        return addDisplayLink { link in
            onFrame?(link)
            count += 1
            Transaction.begin()
            Transaction.disableActions = true
            layer.backgroundColor = Color(red: Double(count % 2), green: 0.5, blue: 0.25)
            Transaction.commit()
        }
    }
}
