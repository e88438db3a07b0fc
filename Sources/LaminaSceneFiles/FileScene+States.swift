import LaminaWidgets

/// A file scene's states: entering one, animated by the transitions the file gives.
extension FileScene {
    /// The states `owner` has: the scene's (`""`) or a template use's.
    func states(of owner: String) -> [String: StateSpec] {
        owner.isEmpty ? document.states : document.useStates[owner]?.states ?? [:]
    }

    /// The state a template use is in (nil: none, its layers as the file wrote them).
    public func state(ofUse name: String) -> String? { useStates[name] }

    /// The states of each template use that has its own, by the use's name.
    public var useStateNames: [String: [String]] { document.useStates.mapValues { $0.states.keys.sorted() } }

    /// Every state-controlled property's value in `state` of `owner`'s states (the scene's,
    /// `""`, or a template use's): the state's own, the rest at rest.
    func targetValues(of state: String?, owner: String = "") -> [(Layer, String, AnimatableValue)] {
        var values = restingValues[owner] ?? [:]
        if let state, let spec = states(of: owner)[state] {
            for entry in spec.values { values[PropertyID(layer: entry.layer, keyPath: entry.keyPath)] = resolve(entry.value) }
        }
        return values.sorted { ($0.key.layer, $0.key.keyPath) < ($1.key.layer, $1.key.keyPath) }.compactMap { id, value in
            layers[id.layer].map { ($0, id.keyPath, value) }
        }
    }

    func apply(state: String?, owner: String = "") {
        for (layer, keyPath, value) in targetValues(of: state, owner: owner) { layer.setValue(value, forKeyPath: keyPath) }
        enter(state, owner: owner)
        layOutAgain()
    }

    /// Records that `owner` is in `state`: the scene's `currentState` (published by its
    /// observer), or a use's, published with the use's name.
    func enter(_ state: String?, owner: String) {
        guard !owner.isEmpty else { return currentState = state }
        let old = useStates[owner]
        useStates[owner] = state
        if old != state && publishesStates {
            context.publish("state", ["state": state.map(ControlValue.string) ?? .null, "layer": .string(owner)])
        }
    }

    /// The state `owner` is in.
    func state(of owner: String) -> String? { owner.isEmpty ? currentState : useStates[owner] }

    /// Goes to `state` with the first transition that matches (from the current state, or
    /// any) — Core Animation's default implicit animation (0.25 s) when none does.
    /// The document's states, sorted.
    public var stateNames: [String] { document.stateNames }

    /// A scene file names its gestures itself (`FileScene+Gestures`).
    public var publishesGestures: Bool { true }

    public func go(toState state: String) { go(toState: state, owner: "") }

    /// Goes to `state` of a template use's own states (`owner`, the use's name; `""` the
    /// scene's), with the first of its transitions that matches.
    public func go(toState state: String, owner: String) {
        guard states(of: owner)[state] != nil else { return }
        let transitions = owner.isEmpty ? document.transitions : document.useStates[owner]?.transitions ?? []
        let from = self.state(of: owner)
        let style = transitions.first {
            ($0.from == nil || $0.from == from) && ($0.to == nil || $0.to == state)
        }?.style ?? .implicit(duration: 0.25, curve: .default)
        switch style {
        case .implicit(let duration, let curve):
            Transaction.begin()
            Transaction.animationDuration = duration
            Transaction.animationTimingFunction = curve
            apply(state: state, owner: owner)
            Transaction.commit()
        case .none:
            Transaction.begin()
            Transaction.disableActions = true
            apply(state: state, owner: owner)
            Transaction.commit()
        case .basic, .spring:
            let shown = targetValues(of: from, owner: owner).map { layer, keyPath, _ in
                layer.presentationValue(forKeyPath: keyPath, at: context.now) ?? layer.value(forKeyPath: keyPath)!
            }
            Transaction.begin()
            Transaction.disableActions = true
            for ((layer, keyPath, value), start) in zip(targetValues(of: state, owner: owner), shown) {
                layer.setValue(value, forKeyPath: keyPath)
                var animation: BasicAnimation
                if case .spring(let spring) = style {
                    animation = BasicAnimation(keyPath: keyPath, from: start, to: value, spring: spring,
                                               duration: spring.settlingDuration)
                } else if case .basic(let duration, let curve) = style {
                    animation = BasicAnimation(keyPath: keyPath, from: start, to: value, duration: duration)
                    animation.timingFunction = curve
                } else {
                    continue
                }
                layer.add(animation, forKey: "state.\(keyPath)")
            }
            enter(state, owner: owner)
            Transaction.commit()
        }
    }
}
