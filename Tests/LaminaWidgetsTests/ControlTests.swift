import Foundation
import LaminaDisplay
import LaminaGeometry
import LaminaInput
import LaminaLayers
import LaminaRuntime
import LaminaTestSupport
import LaminaWidgets
import Testing

/// One of each control on a 640x480 screen.
final class ControlsScene: Scene {
    static let name = "controls"
    let primary: Button, secondary: Button, plain: Button, disabled: Button, small: Button
    let toggle: Toggle, slider: Slider, stepped: Slider
    let bar: ProgressView, ring: ProgressView, spinner: ProgressView
    let name: TextBox
    var taps: [String] = []
    var toggles: [Bool] = []
    var values: [Double] = []
    var commits: [Double] = []
    let context: SceneContext

    init(context: SceneContext, settings: NoSettings) {
        self.context = context
        primary = Button(context: context, title: "Pay now")
        secondary = Button(context: context, title: "Cancel", kind: .secondary)
        plain = Button(context: context, title: "Help", kind: .plain)
        disabled = Button(context: context, title: "Later", kind: .secondary)
        small = Button(context: context, title: "", size: Size(width: 24, height: 24), kind: .secondary)
        toggle = Toggle(context: context)
        slider = Slider(context: context, width: 300, range: 0...100, value: 40)
        stepped = Slider(context: context, width: 300, range: 0...10, value: 5, step: 2.5)
        bar = ProgressView(style: .bar, size: Size(width: 300, height: 12), progress: 0.6)
        ring = ProgressView(style: .ring, size: Size(width: 64, height: 64), progress: 0.6)
        spinner = ProgressView(style: .ring, size: Size(width: 64, height: 64))
        name = TextBox(context: context, width: 300, placeholder: "Your name")
        disabled.isEnabled = false
        for (control, point) in [(primary.layer, Point(x: 100, y: 50)), (secondary.layer, Point(x: 260, y: 50)),
                                 (plain.layer, Point(x: 390, y: 50)), (disabled.layer, Point(x: 510, y: 50)),
                                 (small.layer, Point(x: 600, y: 50)), (toggle.layer, Point(x: 80, y: 150)),
                                 (slider.layer, Point(x: 320, y: 150)), (stepped.layer, Point(x: 320, y: 230)),
                                 (bar.layer, Point(x: 320, y: 310)), (ring.layer, Point(x: 100, y: 400)),
                                 (spinner.layer, Point(x: 540, y: 400)), (name.layer, Point(x: 320, y: 400))] {
            control.position = point
            context.rootLayer.addSublayer(control)
        }
        for button in [primary, secondary, plain, disabled, small] {
            button.onTap = { [unowned self] b in self.taps.append(b.title) }
        }
        toggle.onChange = { [unowned self] t in self.toggles.append(t.isOn) }
        slider.onChange = { [unowned self] s in self.values.append(s.value) }
        slider.onCommit = { [unowned self] s in self.commits.append(s.value) }
    }
}

@Suite("Controls: buttons, toggles, sliders, progress", .serialized)
struct ControlTests {
    private func makeScene() throws -> (DummyDisplayRig, Runtime, ControlsScene) {
        let rig = try DummyDisplayRig(width: 640, height: 480, refresh: 60, start: 0)
        let runtime = rig.makeRuntime()
        let scene = try runtime.install(ControlsScene.self, settings: NoSettings())
        #expect(runtime.run(untilSettled: true) == .settled)
        return (rig, runtime, scene)
    }

    private func play(_ script: String, on runtime: Runtime, _ rig: DummyDisplayRig, for seconds: Double? = nil) throws {
        runtime.addTouchSource(ScriptedTouchSource(script: try TouchScript(parsing: script), start: rig.clock.now))
        if let seconds { runtime.run(exitAfter: seconds, untilSettled: false) } else { #expect(runtime.run(untilSettled: true) == .settled) }
    }

    @Test("a button taps when a finger lifts on it, darkens while held, and not when the finger slid away, or when disabled")
    func buttonTaps() throws {
        let (rig, runtime, scene) = try makeScene()
        try play("at 0.1 tap 100,50 hold 0.3", on: runtime, rig, for: 0.2)
        #expect(scene.primary.isPressed)
        #expect(scene.primary.face.backgroundColor == Theme.dark.pressed(Theme.dark.accent))
        #expect(runtime.run(untilSettled: true) == .settled)
        #expect(scene.taps == ["Pay now"] && !scene.primary.isPressed)
        #expect(scene.primary.face.backgroundColor == Theme.dark.accent)
        try play("at 0.1 drag 100,50 100,200 over 0.3", on: runtime, rig)          // slid off beyond the slop
        try play("at 0.1 tap 510,50", on: runtime, rig)                             // disabled
        #expect(scene.taps == ["Pay now"])
        #expect(scene.disabled.layer.opacity == Theme.dark.disabledOpacity)
        try play("at 0.1 drag 260,50 275,60 over 0.2", on: runtime, rig)            // moved, but stayed on it
        #expect(scene.taps == ["Pay now", "Cancel"])
    }

    @Test("a small button's touch target is at least 48 px each way around its face")
    func touchTarget() throws {
        let (rig, runtime, scene) = try makeScene()
        #expect(scene.small.layer.bounds.size == Size(width: 48, height: 48))
        #expect(scene.small.face.bounds.size == Size(width: 24, height: 24))
        try play("at 0.1 tap 620,68", on: runtime, rig)           // 20 px right, 18 px down of the centre: off the face
        #expect(scene.taps == [""])
        #expect(scene.primary.layer.bounds.height == Theme.dark.controlHeight)
        #expect(scene.primary.layer.bounds.width > scene.primary.label.textWidth + 2 * Theme.dark.padding - 1e-9)
    }

    @Test("a toggle flips on a tap, goes the way it is slid, and says so only for touches")
    func toggle() throws {
        let (rig, runtime, scene) = try makeScene()
        try play("at 0.1 tap 80,150", on: runtime, rig)
        #expect(scene.toggle.isOn && scene.toggles == [true])
        #expect(scene.toggle.track.backgroundColor == Theme.dark.accent)
        #expect(scene.toggle.knob.position.x > Toggle.trackSize.width / 2)
        try play("at 0.1 drag 60,150 100,150 over 0.2", on: runtime, rig)          // slid right while on: stays on
        #expect(scene.toggle.isOn && scene.toggles == [true])
        try play("at 0.1 drag 100,150 60,150 over 0.2", on: runtime, rig)          // slid left: off
        #expect(!scene.toggle.isOn && scene.toggles == [true, false])
        scene.toggle.isOn = true
        #expect(scene.toggles == [true, false] && scene.toggle.knob.position.x > Toggle.trackSize.width / 2)
    }

    @Test("a slider jumps to a touch, follows a drag, commits on the lift; steps snap; the value stays in range")
    func slider() throws {
        let (rig, runtime, scene) = try makeScene()
        // The track spans x 186…454 (300 wide, less the thumb) on the slider centred at 320.
        let start = 320 - 150 + Slider.thumbDiameter / 2, length = 300 - Slider.thumbDiameter
        try play("at 0.1 tap \(Int(start + length * 0.25)),150", on: runtime, rig)
        #expect(abs(scene.slider.value - 25) < 1e-9 && scene.commits.count == 1)
        try play("at 0.1 drag \(Int(start + length * 0.25)),150 \(Int(start + length)),160 over 0.3", on: runtime, rig)
        #expect(scene.slider.value == 100 && scene.commits.last == 100)
        #expect(zip(scene.values, scene.values.dropFirst()).allSatisfy { $0 <= $1 })
        try play("at 0.1 drag 300,150 0,150 over 0.3", on: runtime, rig)           // past the end: the minimum
        #expect(scene.slider.value == 0)
        #expect(abs(scene.slider.thumb.position.x - Slider.thumbDiameter / 2) < 1e-9)
        #expect(scene.stepped.value == 5)
        try play("at 0.1 tap \(Int(start + length * 0.66)),230", on: runtime, rig)     // 6.6 → 7.5
        #expect(scene.stepped.value == 7.5)
        scene.stepped.value = 11
        #expect(scene.stepped.value == 10)
        scene.stepped.value = .nan
        #expect(scene.stepped.value == 10)
    }

    @Test("progress fills a bar to its fraction and a ring's arc to it; indeterminate ones run forever until made determinate")
    func progress() throws {
        let (_, runtime, scene) = try makeScene()
        #expect(scene.bar.fill.bounds.width == 300 * 0.6)
        #expect((scene.ring.fill as? ShapeLayer)?.strokeEnd == 0.6)
        scene.bar.progress = 1.7
        #expect(scene.bar.progress == 1 && scene.bar.fill.bounds.width == 300)
        #expect(scene.bar.fill.animation(forKey: "bounds") != nil)                   // 0.25 s to get there
        scene.spinner.isIndeterminate = true
        #expect(runtime.run(exitAfter: 5, untilSettled: true) == .timeLimit)       // keeps animating
        scene.spinner.isIndeterminate = false
        #expect(runtime.run(untilSettled: true) == .settled)
    }

    @Test("a text box: a tap in its padding focuses the field, the border takes the accent, the placeholder shows while empty")
    func textBox() throws {
        let (rig, runtime, scene) = try makeScene()
        #expect(scene.name.layer.bounds.size == Size(width: 300, height: Theme.dark.controlHeight))
        #expect(!scene.name.field.placeholderLabel.isHidden && scene.name.field.text.isEmpty)
        try play("at 0.1 tap 176,400", on: runtime, rig, for: 0.3)                 // 6 px inside the box's left edge
        #expect(scene.name.field.isFocused)
        #expect(scene.name.layer.borderColor == Theme.dark.accent)
        scene.name.field.text = "Ada"
        #expect(scene.name.field.placeholderLabel.isHidden)
        scene.name.field.resignFocus()
        #expect(scene.name.layer.borderColor == Theme.dark.surface)
    }

    @Test("a dialog confines touches: the button behind and a recognizer on the root hear nothing; its button dismisses it and acts")
    func dialog() throws {
        let (rig, runtime, scene) = try makeScene()
        var rootTaps = 0, confirmed = 0, dismissed = 0
        let context = scene.context
        let rootTap = TapGestureRecognizer { _ in rootTaps += 1 }
        rootTap.cancelsTouchesInView = false                                        // the button hears its touches too
        context.addGestureRecognizer(rootTap, to: context.rootLayer)
        let dialog = Dialog(context: context, title: "Cancel the order?", message: "The items go back on the shelf.",
                            actions: [Dialog.Action("Keep", kind: .secondary), Dialog.Action("Cancel it") { confirmed += 1 }])
        dialog.onDismiss = { _ in dismissed += 1 }
        dialog.card.shadowOpacity = 0                                               // a debug build blurs slowly; the golden has it
        dialog.show()
        #expect(runtime.run(untilSettled: true) == .settled)
        try play("at 0.1 tap 100,50", on: runtime, rig)                              // the button behind
        #expect(scene.taps.isEmpty && rootTaps == 0 && dialog.isShown)
        let centre = dialog.card.frame.origin + dialog.buttons[1].layer.position      // the card holds the buttons
        try play("at 0.1 tap \(Int(centre.x)),\(Int(centre.y))", on: runtime, rig)
        #expect(confirmed == 1 && dismissed == 1 && !dialog.isShown)
        #expect(dialog.layer.superlayer == nil)                                     // gone once faded
        try play("at 0.1 tap 100,50", on: runtime, rig)
        #expect(scene.taps == ["Pay now"] && rootTaps == 1)
    }

    @Test("a dialog's background dismisses it only when asked to")
    func dialogBackground() throws {
        let (rig, runtime, scene) = try makeScene()
        let context = scene.context
        let dialog = Dialog(context: context, title: "Saved", actions: [])
        dialog.card.shadowOpacity = 0
        #expect(dialog.buttons.map(\.title) == ["OK"])
        dialog.show()
        try play("at 0.1 tap 20,20", on: runtime, rig)
        #expect(dialog.isShown)
        dialog.dismissesOnBackgroundTap = true
        try play("at 0.1 tap 20,20", on: runtime, rig)
        #expect(!dialog.isShown)
    }

    @Test("a dialog as drawn (checked by eye once, then frozen)")
    func dialogGolden() throws {
        let (rig, runtime, scene) = try makeScene()
        let context = scene.context
        let dialog = Dialog(context: context, title: "Cancel the order?", message: "The three items go back on the shelf and the payment is returned.",
                            actions: [Dialog.Action("Keep", kind: .secondary), Dialog.Action("Cancel it")])
        dialog.show()
        #expect(runtime.run(untilSettled: true) == .settled)
        let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden/dialog.png").path
        let mismatch = try Golden.compare(rig.display.shadow, to: golden)
        #expect(mismatch == nil, "\(mismatch ?? "")")
    }

    @Test("the controls as drawn (checked by eye once, then frozen)")
    func golden() throws {
        let (rig, runtime, scene) = try makeScene()
        scene.toggle.isOn = true
        scene.spinner.setProgress(0.25, animated: false)
        #expect(runtime.run(untilSettled: true) == .settled)
        let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden/controls.png").path
        let mismatch = try Golden.compare(rig.display.shadow, to: golden)
        #expect(mismatch == nil, "\(mismatch ?? "")")
    }
}
