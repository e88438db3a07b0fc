import Lamina
@testable import LaminaSceneFiles
@testable import LaminaRuntime
import LaminaDisplay
import LaminaGeometry
import LaminaRaster
import LaminaTestSupport
import Testing

/// Atomic page flips carry the frame's damage as `FB_DAMAGE_CLIPS` (display-input.md §3).
@Suite("Flip damage clips")
struct FlipDamageTests {
    /// The damage each flip carried while an 8x8 layer at (2, 2) flickers on a 40x30 output.
    private func flipDamage(atomic: Bool, clips: Bool) throws -> [PixelRect?] {
        let rig = try DummyDisplayRig(width: 40, height: 30, refresh: 60, start: 0)
        rig.device.supportsAtomic = atomic
        rig.device.supportsDamageClips = clips
        let runtime = rig.makeRuntime()
        let link = runtime.addFlickeringLayer(frame: Rect(x: 2, y: 2, width: 8, height: 8))
        runtime.run(exitAfter: 0.2, untilSettled: false)
        link.isPaused = true
        #expect(rig.device.pageFlipMethod(crtc: rig.display.crtc)
                == (atomic ? (clips ? "atomic page flips with FB_DAMAGE_CLIPS" : "atomic page flips") : "legacy page flips"))
        return rig.device.flipDamage
    }

    @Test("the first flip carries the whole frame, every later one only the flickering square")
    func clipsAreFrameDamage() throws {
        let damage = try flipDamage(atomic: true, clips: true)
        #expect(damage.count >= 11)
        let first = try #require(damage.first ?? nil)
        #expect(first == PixelRect(width: 40, height: 30))
        // The renderer's damage: the square plus at most its one-pixel antialiasing margin.
        for region in damage.dropFirst() {
            let r = try #require(region)
            #expect(r.x0 >= 1 && r.y0 >= 1 && r.x0 <= 2 && r.y0 <= 2)
            #expect(r.x1 >= 10 && r.y1 >= 10 && r.x1 <= 11 && r.y1 <= 11)
        }
    }

    @Test("without FB_DAMAGE_CLIPS (or without atomic) no clips are sent")
    func noClipsWithoutSupport() throws {
        #expect(try flipDamage(atomic: true, clips: false).isEmpty)
        #expect(try flipDamage(atomic: false, clips: true).isEmpty)
    }
}
