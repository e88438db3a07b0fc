import LaminaWidgets

extension FileScene {
    /// Puts the recognizer `gesture` describes on its layer.
    func attach(_ gesture: GestureSpec) {
        guard let layer = layers[gesture.layer] else { return }
        if case .tap(1) = gesture.recognizer, let button = buttons[gesture.layer] {
            // A button's tap is its own (pressed look, slop, cancelled by a scroll), then the action.
            let published = button.onTap
            button.onTap = { [unowned self] b in
                published?(b)
                self.perform(gesture.action, gesture, publishing: false)
            }
            return
        }
        switch gesture.recognizer {
        case .tap(let count):
            let tap = TapGestureRecognizer { [unowned self] tap in
                if tap.state == .recognized { self.perform(gesture.action, gesture) }
            }
            tap.numberOfTapsRequired = count
            context.addGestureRecognizer(tap, to: layer)
        case .longPress(let duration):
            let press = LongPressGestureRecognizer { [unowned self] press in
                if press.state == .began { self.perform(gesture.action, gesture) }
            }
            press.minimumPressDuration = duration
            context.addGestureRecognizer(press, to: layer)
        case .swipe(let direction):
            let swipe = SwipeGestureRecognizer { [unowned self] swipe in
                if swipe.state == .recognized { self.perform(gesture.action, gesture) }
            }
            swipe.direction = direction
            context.addGestureRecognizer(swipe, to: layer)
        case .pan(let drag, let animator, let mode):
            context.addGestureRecognizer(PanGestureRecognizer { [unowned self] pan in
                if pan.state == .began {
                    self.context.publish("gesture", ["gesture": .string("pan"), "layer": .string(gesture.layer)])
                }
                if drag { self.drag(layer, pan) }
                guard let animator else { return }
                switch mode {
                case .hold: self.hold(animator, pan)
                case .scrub(let axis, let distance): self.scrub(animator, pan, axis: axis, distance: distance)
                }
            }, to: layer)
        }
    }

    private func perform(_ action: GestureAction?, _ gesture: GestureSpec, publishing: Bool = true) {
        if publishing { context.publish("gesture", ["gesture": .string(gesture.kindName), "layer": .string(gesture.layer)]) }
        if let action { act(action, owner: gesture.owner ?? "") }
    }

    /// Does what a gesture or a dialog's action says; states are `owner`'s (`""`: the scene's).
    private func act(_ action: GestureAction, owner: String) {
        switch action {
        case .goTo(let state): go(toState: state, owner: owner)
        case .toggle(let a, let b): go(toState: state(of: owner) == a ? b : a, owner: owner)
        case .run(let name):
            guard let named = document.animations[name], let layer = layers[named.layer] else { return }
            add(named.animation.starting(at: context.now), to: layer, key: name)
        case .show(let name): show(dialog: name)
        }
    }

    /// Shows dialog `name` with its texts as the bindings have them now; an action dismisses
    /// it, publishes a `choose` control event and does what it says.
    func show(dialog name: String) {
        guard let spec = document.dialogs[name], shownDialog == nil else { return }
        let read: (String) -> BindingValue? = { [unowned self] in self.bindingValues[$0] }
        let actions = spec.actions.map { action in
            Dialog.Action(action.title, kind: action.kind) { [weak self] in
                guard let self else { return }
                self.context.publish("control", ["layer": .string(name), "action": .string("choose"), "value": .string(action.title)])
                if let does = action.action { self.act(does, owner: "") }
            }
        }
        var theme = Theme.dark
        theme.font = document.defaultFont
        let dialog = Dialog(context: context, title: spec.title.text(in: language, read),
                            message: spec.message?.text(in: language, read) ?? "", actions: actions, theme: theme)
        dialog.dismissesOnBackgroundTap = spec.dismissesOnBackgroundTap
        dialog.onDismiss = { [weak self] _ in self?.shownDialog = nil }
        shownDialog = dialog
        dialog.show()
    }

    /// The layer follows the finger.
    private func drag(_ layer: Layer, _ pan: PanGestureRecognizer) {
        let id = ObjectIdentifier(layer)
        switch pan.state {
        case .began:
            gestureState.dragStart[id] = layer.position
        case .changed, .ended, .cancelled:
            guard let start = gestureState.dragStart[id] else { return }
            let t = pan.translation(in: nil)
            Transaction.begin()
            Transaction.disableActions = true
            layer.position = Point(x: start.x + t.x, y: start.y + t.y)
            Transaction.commit()
            if pan.state != .changed { gestureState.dragStart[id] = nil }
        default:
            break
        }
    }

    /// Hold: the animator runs toward its state while the finger is down and back on
    /// release. Each turn stops the animator where it is (`stopAnimation(false)`,
    /// `finishAnimation(at: .current)`), adds the new animation, starts, pauses and continues
    /// with the fraction already done as the duration factor — the UIViewPropertyAnimator
    /// tutorial's sequence, so a quick re-grab reverses from wherever it is.
    private func hold(_ name: String, _ pan: PanGestureRecognizer) {
        switch pan.state {
        case .began: turn(name, towardState: true)
        case .ended, .cancelled: turn(name, towardState: false)
        default: break
        }
    }

    private func turn(_ name: String, towardState: Bool) {
        guard let animator = animators[name], let spec = document.animators[name] else { return }
        let done = animator.state == .active ? animator.fractionComplete : 0
        animator.stopAnimation(withoutFinishing: false)
        if animator.state == .stopped { animator.finishAnimation(at: .current) }
        let targets = targetValues(of: towardState ? spec.state : currentState)
        animator.addAnimations {
            for (layer, keyPath, value) in targets { layer.setValue(value, forKeyPath: keyPath) }
        }
        animator.startAnimation()
        animator.pauseAnimation()
        animator.continueAnimation(durationFactor: done)
    }

    /// The distance a scrub's fraction runs over: as written toward the animator's state, the
    /// other way back from it (a drawer opened upward closes downward).
    private func way(_ name: String, _ distance: Double) -> Double {
        gestureState.scrubEnds[name].map { $0.to == nil } == true ? -distance : distance
    }

    /// Scrub: the animator's fraction follows the finger along `axis` (`distance` points from
    /// start to end; back from the animator's state, the other way); on release it finishes the way the finger was going, or back when it
    /// let go before halfway without a flick, on a critically damped spring carrying the
    /// finger's velocity.
    private func scrub(_ name: String, _ pan: PanGestureRecognizer, axis: GestureSpec.Axis, distance: Double) {
        guard let animator = animators[name], let spec = document.animators[name] else { return }
        let along = { (p: Point) in axis == .x ? p.x : p.y }
        switch pan.state {
        case .began:
            if animator.state != .active {
                // Toward the animator's state, or from it back to the file's own values.
                let ends = (from: currentState, to: currentState != spec.state ? spec.state : nil)
                let targets = targetValues(of: ends.to)
                animator.addAnimations {
                    for (layer, keyPath, value) in targets { layer.setValue(value, forKeyPath: keyPath) }
                }
                gestureState.scrubEnds[name] = ends
            }
            animator.pauseAnimation()
            animator.isReversed = false
            gestureState.scrubStart[name] = animator.fractionComplete
        case .changed:
            let start = gestureState.scrubStart[name] ?? 0
            animator.fractionComplete = min(max(start + along(pan.translation(in: nil)) / way(name, distance), 0), 1)
        case .ended, .cancelled:
            let fraction = animator.fractionComplete
            let velocity = along(pan.velocity()) / way(name, distance)   // fractions per second
            let projected = fraction + 0.2 * velocity               // where a flick would carry it
            let finishes = pan.state == .ended && projected >= 0.5
            animator.isReversed = !finishes
            let remaining = finishes ? 1 - fraction : fraction
            let speed = remaining > 0.001 ? abs(velocity) / remaining : 0
            let spring = Spring(dampingRatio: 1, duration: spec.duration, initialVelocity: min(speed, 50))
            let ends = gestureState.scrubEnds[name] ?? (from: currentState, to: spec.state)
            animator.addCompletion { [unowned self] position in
                // Where it came to rest: the end it was heading for, or back where it began.
                self.currentState = position == .end ? ends.to : ends.from
            }
            animator.continueAnimation(timing: .spring(spring), durationFactor: remaining)
            gestureState.scrubStart[name] = nil
        default:
            break
        }
    }
}
