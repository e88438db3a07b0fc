import Testing
@testable import LaminaAnimation
@testable import LaminaGeometry
@testable import LaminaLayers

/// A rendered tree with one layer at x = 0, and frames on demand.
private final class Scene {
    let layer = Layer()
    let tree: LayerTree
    var completions: [PropertyAnimator.Position] = []

    init() {
        let root = Layer()
        root.addSublayer(layer)
        tree = LayerTree(root: root)
        frame(0)
    }

    /// One frame at `t`: commit, presentation, callbacks.
    func frame(_ t: Double) {
        tree.commit(at: t)
        for callback in tree.updatePresentation(at: t) { callback() }
    }

    var shownX: Double { layer.presentation()!.position.x }

    func animator(_ duration: Double = 1) -> PropertyAnimator {
        let animator = PropertyAnimator(duration: duration, curve: .linear, tree: tree)
        animator.addAnimations { self.layer.position = Point(x: 100, y: 0) }
        animator.addCompletion { self.completions.append($0) }
        return animator
    }
}

@Suite("Property animator (rules 71–76)")
struct PropertyAnimatorTests {
    @Test("the model changes at once; start runs it; the natural end completes once with .end and goes inactive (rule 71)")
    func naturalFinish() {
        let scene = Scene()
        let animator = scene.animator()
        #expect(scene.layer.position.x == 100 && animator.state == .inactive)
        animator.startAnimation()
        #expect(animator.state == .active && animator.isRunning)
        scene.frame(10)
        #expect(scene.shownX == 0)
        scene.frame(10.5)
        #expect(abs(scene.shownX - 50) < 1e-9)
        #expect(abs(animator.fractionComplete - 0.5) < 1e-9)
        scene.frame(11)
        #expect(scene.shownX == 100)
        #expect(scene.completions == [.end] && animator.state == .inactive)
        scene.frame(11.5)
        #expect(scene.completions == [.end] && scene.shownX == 100)
    }

    @Test("scrubbing: fractionComplete on an inactive animator makes it active and paused and moves the layer (rule 73)")
    func scrub() {
        let scene = Scene()
        let animator = scene.animator()
        animator.fractionComplete = 0.3
        #expect(animator.state == .active && !animator.isRunning)
        scene.frame(1)
        #expect(abs(scene.shownX - 30) < 1e-9)
        animator.fractionComplete = 0.8
        scene.frame(2)
        #expect(abs(scene.shownX - 80) < 1e-9)
        #expect(scene.completions.isEmpty)
    }

    @Test("acceptance: a drag pauses, scrubs, reverses by velocity and continues; the completion fires once with .start (rule 76)")
    func dragDriven() {
        let scene = Scene()
        let animator = scene.animator()
        animator.startAnimation()
        scene.frame(0)
        scene.frame(0.4)                                                  // running: 40
        animator.pauseAnimation()                                         // .began
        scene.frame(0.45)
        #expect(abs(scene.shownX - 40) < 1e-9)
        animator.fractionComplete = 0.2                                   // .changed
        scene.frame(0.5)
        #expect(abs(scene.shownX - 20) < 1e-9)
        animator.isReversed = true                                        // .ended, flung back
        animator.continueAnimation(timing: nil, durationFactor: 0)        // the remaining 0.2 s
        scene.frame(0.6)
        scene.frame(0.7)
        #expect(abs(scene.shownX - 10) < 1e-9)
        #expect(abs(animator.fractionComplete - 0.1) < 1e-9)              // measured from the original start
        scene.frame(0.8)
        #expect(scene.shownX == 0 && scene.layer.position.x == 0)         // the model goes back to the start
        #expect(scene.completions == [.start] && animator.state == .inactive)
        scene.frame(1)
        #expect(scene.completions == [.start])
    }

    @Test("stop without finishing keeps what shows and runs no completion; stop then finish(at:) completes with the position (rule 71)")
    func stopAndFinish() {
        let quiet = Scene()
        let a = quiet.animator()
        a.startAnimation()
        quiet.frame(0)
        quiet.frame(0.25)
        a.stopAnimation(withoutFinishing: true)
        #expect(a.state == .inactive && abs(quiet.layer.position.x - 25) < 1e-9)
        quiet.frame(0.5)
        #expect(abs(quiet.shownX - 25) < 1e-9 && quiet.completions.isEmpty)

        for (position, expected) in [(PropertyAnimator.Position.end, 100.0), (.start, 0), (.current, 60)] {
            let scene = Scene()
            let b = scene.animator()
            b.startAnimation()
            scene.frame(0)
            scene.frame(0.6)
            b.stopAnimation(withoutFinishing: false)
            #expect(b.state == .stopped)
            b.finishAnimation(at: position)
            #expect(b.state == .inactive && abs(scene.layer.position.x - expected) < 1e-9, "\(position)")
            #expect(scene.completions.isEmpty)                             // delivered from the frame loop
            scene.frame(0.7)
            #expect(scene.completions == [position] && abs(scene.shownX - expected) < 1e-9)
        }
    }

    @Test("pausesOnCompletion: at the end it stays active and paused, no completion, and can run back (rule 72)")
    func pausesOnCompletion() {
        let scene = Scene()
        let animator = scene.animator()
        animator.pausesOnCompletion = true
        animator.startAnimation()
        scene.frame(0)
        scene.frame(1)
        scene.frame(1.5)
        #expect(animator.state == .active && !animator.isRunning && scene.completions.isEmpty)
        #expect(scene.shownX == 100)
        animator.isReversed = true
        animator.continueAnimation(timing: nil, durationFactor: 0)
        scene.frame(2)
        scene.frame(2.5)
        #expect(abs(scene.shownX - 50) < 1e-9)
    }

    @Test("animations added while running start at once and end with the animator (rule 75)")
    func addWhileRunning() {
        let scene = Scene()
        let animator = scene.animator()
        animator.startAnimation()
        scene.frame(0)
        scene.frame(0.5)
        animator.addAnimations { scene.layer.opacity = 0 }
        #expect(scene.layer.opacity == 0)                                 // the model, at once
        scene.frame(0.5)
        #expect(scene.layer.presentation()!.opacity == 1)
        scene.frame(0.75)
        #expect(abs(scene.layer.presentation()!.opacity - 0.5) < 1e-9)    // half of the remaining half
        scene.frame(1)
        #expect(scene.layer.presentation()!.opacity == 0 && scene.completions == [.end])
    }

    @Test("a spring animator (duration, dampingRatio) follows the duration-fit spring (rules 31, 76)")
    func springTiming() {
        let scene = Scene()
        let animator = PropertyAnimator(duration: 0.5, dampingRatio: 0.6, tree: scene.tree)
        animator.addAnimations { scene.layer.position = Point(x: 100, y: 0) }
        animator.startAnimation()
        scene.frame(0)
        scene.frame(0.2)
        let spring = Spring(dampingRatio: 0.6, duration: 0.5)
        #expect(abs(scene.shownX - 100 * spring.fraction(at: 0.2)) < 1e-9)
    }
}

@Suite("Spring timing parameters (rule 32)")
struct SpringParameterTests {
    @Test("velocity units: finger speed over the distance to travel; a physical spring runs for its settling duration")
    func units() {
        #expect(SpringTimingParameters.velocity(fingerSpeed: 600, distance: 300) == 2)
        #expect(SpringTimingParameters().dampingRatio == 4.56 && SpringTimingParameters().initialVelocity == (0, 0))
        let root = Layer()
        let tree = LayerTree(root: root)
        let physical = PropertyAnimator(duration: 9, timingParameters: SpringTimingParameters(mass: 1, stiffness: 100, damping: 10),
                                        tree: tree)
        #expect(physical.duration == Spring().settlingDuration)
        let fitted = PropertyAnimator(duration: 0.5, timingParameters: SpringTimingParameters(dampingRatio: 0.7), tree: tree)
        #expect(fitted.duration == 0.5)
    }
}
