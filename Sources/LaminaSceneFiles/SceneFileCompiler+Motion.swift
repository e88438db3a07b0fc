import LaminaSceneSyntax
import LaminaWidgets

extension SceneFileCompiler {
    static let animationKeys = ["keyPath", "from", "to", "by", "values", "keyTimes", "curves", "calculationMode", "curve",
                                "duration", "beginTime", "repeat", "repeatDuration", "autoreverses", "speed", "fillMode",
                                "removedOnCompletion", "additive", "cumulative", "spring", "decay", "group"]

    /// An explicit animation on a layer of `kind`: basic (`from`/`to`/`by`), spring
    /// (`spring:` in one of three forms), keyframe (`values:`) or a group (`group:` a list).
    mutating func animation(_ node: SceneNode, _ path: String, kind: LayerSpec.Kind) throws(ConfigError) -> AnimationSpec {
        animationCount += 1
        guard animationCount <= Limits.animations else {
            throw SceneFields.error(file, node, path, "more than \(Limits.animations) animations")
        }
        var fields = try SceneFields(node, path: path, file: file)
        var timing = MediaTiming()
        var curve: TimingFunction?
        if let n = fields.take("duration") { timing.duration = try values.number(n, fields.path("duration"), in: 0...86_400) }
        if let n = fields.take("beginTime") { timing.beginTime = try values.number(n, fields.path("beginTime"), in: 0...86_400) }
        if let n = fields.take("repeat") {
            timing.repeatCount = n.scalar == "forever" ? .infinity : try values.number(n, fields.path("repeat"), in: 0...1e6)
        }
        if let n = fields.take("repeatDuration") { timing.repeatDuration = try values.number(n, fields.path("repeatDuration"), in: 0...1e6) }
        if let n = fields.take("autoreverses") { timing.autoreverses = try values.bool(n, fields.path("autoreverses")) }
        if let n = fields.take("speed") { timing.speed = try values.number(n, fields.path("speed"), in: -100...100) }
        if let n = fields.take("fillMode") { timing.fillMode = try values.choice(n, fields.path("fillMode"), FillMode.allCases) }
        if let n = fields.take("curve") { curve = try values.curve(n, fields.path("curve")) }
        let removed = try fields.take("removedOnCompletion").map { n throws(ConfigError) in try values.bool(n, fields.path("removedOnCompletion")) } ?? true

        if let members = fields.take("group") {
            guard let items = members.items, !items.isEmpty else {
                throw fields.error(members, "group", "a group is a non-empty list of animations")
            }
            var animations: [BasicAnimation] = []
            for (i, item) in items.enumerated() {
                guard case .single(let a) = try animation(item, "\(fields.path("group"))[\(i)]", kind: kind) else {
                    throw fields.error(item, "group", "groups do not nest")
                }
                animations.append(a)
            }
            try fields.rejectUnknown(known: ["group", "duration", "beginTime", "repeat", "repeatDuration", "autoreverses",
                                             "speed", "fillMode", "curve", "removedOnCompletion"])
            var group = AnimationGroup(animations: animations)
            group.timing = timing
            group.timingFunction = curve
            group.isRemovedOnCompletion = removed
            return .group(group)
        }

        guard let keyNode = fields.take("keyPath") else {
            throw fields.error(node, nil, "an animation names its `keyPath` (or is a `group`)")
        }
        let keyPath = try values.string(keyNode, fields.path("keyPath"), maxLength: 64)
        let prototype = kind.makeLayer()
        guard let sample = prototype.value(forKeyPath: keyPath) else {
            let hint = SceneFields.nearest(keyPath, in: kind.layerType.animatableKeyPaths).map { " (did you mean '\($0)'?)" } ?? ""
            throw fields.error(keyNode, "keyPath", "a \(kind.rawValue) layer has no animatable property '\(Escaped(keyPath))'\(hint)")
        }
        func end(_ key: String) throws(ConfigError) -> AnimatableValue? {
            try fields.take(key).map { n throws(ConfigError) in try values.value(n, fields.path(key), like: sample, keyPath: keyPath) }
        }
        var animation = BasicAnimation(keyPath: keyPath, from: try end("from"), to: try end("to"), by: try end("by"))
        if let list = fields.take("values") {
            guard let items = list.items, (1...Limits.keyframes).contains(items.count) else {
                throw fields.error(list, "values", "keyframe values are a list of 1…\(Limits.keyframes) values")
            }
            var frames: [AnimatableValue] = []
            for (i, item) in items.enumerated() { frames.append(try values.value(item, "\(fields.path("values"))[\(i)]", like: sample, keyPath: keyPath)) }
            var keyframes = Keyframes(values: frames)
            if let times = fields.take("keyTimes") {
                let t = try values.numbers(times, fields.path("keyTimes"), count: frames.count...frames.count,
                                           what: "one key time per value")
                guard t.first == 0, t.last == 1, zip(t, t.dropFirst()).allSatisfy({ $0 <= $1 }) else {
                    throw fields.error(times, "keyTimes", "key times rise from 0 (the first) to 1 (the last)")
                }
                keyframes.keyTimes = t
            }
            if let curves = fields.take("curves") {
                guard let items = curves.items, items.count == frames.count - 1 else {
                    throw fields.error(curves, "curves", "one curve per segment (\(frames.count - 1))")
                }
                var functions: [TimingFunction] = []
                for (i, item) in items.enumerated() { functions.append(try values.curve(item, "\(fields.path("curves"))[\(i)]")) }
                keyframes.timingFunctions = functions
            }
            if let mode = fields.take("calculationMode") {
                keyframes.calculationMode = try values.choice(mode, fields.path("calculationMode"), CalculationMode.allCases)
            }
            animation.keyframes = keyframes
        }
        if let n = fields.take("spring") {
            let spring = try self.spring(n, fields.path("spring"))
            animation.spring = spring.spring
            if timing.duration == 0 { timing.duration = spring.duration }
        }
        if let n = fields.take("decay") {
            guard animation.toValue == nil, animation.byValue == nil, animation.keyframes == nil, animation.spring == nil else {
                throw fields.error(n, "decay", "a decay animation has no `to`, `by`, `values` or `spring`: it ends where its velocity takes it")
            }
            let decayed = try decay(n, fields.path("decay"), keyPath: keyPath, from: animation.fromValue, like: sample)
            animation.byValue = decayed.byValue
            animation.decay = decayed.decay
            if timing.duration == 0 { timing.duration = decayed.timing.duration }
        }
        if let n = fields.take("additive") { animation.isAdditive = try values.bool(n, fields.path("additive")) }
        if let n = fields.take("cumulative") { animation.isCumulative = try values.bool(n, fields.path("cumulative")) }
        try fields.rejectUnknown(known: Self.animationKeys)
        animation.timing = timing
        animation.timingFunction = curve
        animation.isRemovedOnCompletion = removed
        return .single(animation)
    }

    /// A decay (rule 93) `{velocity, rate}`: the velocity a value like the property's, per
    /// second; the rate `normal` (0.998 a millisecond, the default) or `fast` (0.99).
    private func decay(_ node: SceneNode, _ path: String, keyPath: String, from: AnimatableValue?,
                       like sample: AnimatableValue) throws(ConfigError) -> BasicAnimation {
        var fields = try SceneFields(node, path: path, file: file)
        guard let velocityNode = fields.take("velocity") else {
            throw fields.error(node, nil, "a decay gives its `velocity` (per second)")
        }
        let velocity = try values.value(velocityNode, fields.path("velocity"), like: sample)
        var rate = Decay.normalRate
        if let n = fields.take("rate") {
            switch try values.string(n, fields.path("rate")) {
            case "normal": rate = Decay.normalRate
            case "fast": rate = Decay.fastRate
            case let other: throw fields.error(n, "rate", "'\(Escaped(other))' is not normal or fast")
            }
        }
        try fields.rejectUnknown(known: ["velocity", "rate"])
        return BasicAnimation(keyPath: keyPath, from: from, velocity: velocity, decay: Decay(rate: rate))
    }

    /// A spring in one of three forms: UIKit's `{dampingRatio, duration}` (runs exactly
    /// `duration`), SwiftUI's perceptual `{duration, bounce}`, or the physical
    /// `{mass, stiffness, damping}`; each may add `initialVelocity`. Returns the spring and
    /// how long an animation with it runs.
    func spring(_ node: SceneNode, _ path: String) throws(ConfigError) -> (spring: Spring, duration: Double) {
        var fields = try SceneFields(node, path: path, file: file)
        func number(_ key: String, _ range: ClosedRange<Double>) throws(ConfigError) -> Double? {
            try fields.take(key).map { n throws(ConfigError) in try values.number(n, fields.path(key), in: range) }
        }
        let velocity = try number("initialVelocity", -1e4...1e4) ?? 0
        let ratio = try number("dampingRatio", 0.01...1)
        let duration = try number("duration", 0.01...60)
        let bounce = try number("bounce", -0.99...0.99)
        let mass = try number("mass", 0.001...1e4)
        let stiffness = try number("stiffness", 0.001...1e6)
        let damping = try number("damping", 0...1e6)
        try fields.rejectUnknown(known: ["dampingRatio", "duration", "bounce", "mass", "stiffness", "damping", "initialVelocity"])
        switch (ratio, duration, bounce, mass ?? stiffness ?? damping) {
        case (let ratio?, let duration?, nil, nil):
            return (Spring(dampingRatio: ratio, duration: duration, initialVelocity: velocity), duration)
        case (nil, let duration?, let bounce?, nil):
            var spring = Spring(perceptualDuration: duration, bounce: bounce)
            spring.initialVelocity = velocity
            return (spring, spring.settlingDuration)
        case (nil, nil, nil, _?):
            let spring = Spring(mass: mass ?? 1, stiffness: stiffness ?? 100, damping: damping ?? 10, initialVelocity: velocity)
            return (spring, spring.settlingDuration)
        default:
            throw fields.error(node, nil, "a spring is {dampingRatio, duration}, {duration, bounce} or {mass, stiffness, damping}")
        }
    }

    // MARK: Named animations and animators

    mutating func readNamedAnimations(_ node: SceneNode) throws(ConfigError) -> [String: NamedAnimation] {
        var fields = try SceneFields(node, path: "animations", file: file)
        var result: [String: NamedAnimation] = [:]
        for name in fields.keys {
            let value = fields.take(name)!
            guard Self.isName(name) else { throw fields.error(fields.keyNode(name)!, name, Self.nameRule) }
            guard let layerNode = value["layer"], case .mapping(var entries) = value.value else {
                throw fields.error(value, name, "a named animation names its `layer` and describes the animation")
            }
            let layer = try values.string(layerNode, fields.path(name) + ".layer", maxLength: 200)
            let kind = try layerKind(layer, layerNode, fields.path(name) + ".layer")
            entries.removeAll { $0.key.scalar == "layer" }
            result[name] = NamedAnimation(layer: layer, animation: try animation(SceneNode(.mapping(entries), at: value.position),
                                                                                 fields.path(name), kind: kind))
        }
        return result
    }

    func readAnimators(_ node: SceneNode, states: [String: StateSpec]) throws(ConfigError) -> [String: AnimatorSpec] {
        var fields = try SceneFields(node, path: "animators", file: file)
        guard fields.count <= Limits.animators else { throw fields.error(node, nil, "more than \(Limits.animators) animators") }
        var result: [String: AnimatorSpec] = [:]
        for name in fields.keys {
            let value = fields.take(name)!
            guard Self.isName(name) else { throw fields.error(fields.keyNode(name)!, name, Self.nameRule) }
            var a = try SceneFields(value, path: fields.path(name), file: file)
            guard let d = a.take("duration"), let s = a.take("state") else {
                throw a.error(value, nil, "an animator has a `duration` and the `state` it animates to")
            }
            let state = try values.string(s, a.path("state"), maxLength: Limits.nameBytes)
            guard states[state] != nil else { throw a.error(s, "state", "no state is named '\(Escaped(state))'") }
            let curve = try a.take("curve").map { n throws(ConfigError) in try values.curve(n, a.path("curve")) } ?? .easeInEaseOut
            try a.rejectUnknown(known: ["duration", "state", "curve"])
            result[name] = AnimatorSpec(name: name, duration: try values.number(d, a.path("duration"), in: 0.01...3600),
                                        curve: curve, state: state)
        }
        return result
    }

    // MARK: States and transitions

    /// The keys a template may carry for each use's own states and gestures.
    static let behaviourKeys = ["states", "initialState", "transitions", "gestures"]

    /// A template use's own states, initial state, transitions and gestures (added to
    /// `gestures`), with the template's layer names under the use's (`self`: the use's layer).
    func readBehaviour(of use: PendingUse, animations: [String: NamedAnimation], animators: [String: AnimatorSpec],
                       gestures: inout [GestureSpec]) throws(ConfigError) -> StateMachine {
        let scope = LayerScope(owner: use.owner)
        let at = use.path + " "
        var machine = StateMachine()
        if let node = use.behaviour["states"] { machine.states = try readStates(node, path: at + "states", scope: scope) }
        if let node = use.behaviour["initialState"] {
            let name = try values.string(node, at + "initialState", maxLength: Limits.nameBytes)
            guard machine.states[name] != nil else { throw SceneFields.error(file, node, at + "initialState", "no state is named '\(Escaped(name))'") }
            machine.initialState = name
        }
        if let node = use.behaviour["transitions"] {
            machine.transitions = try readTransitions(node, states: machine.states, path: at + "transitions")
        }
        if let node = use.behaviour["gestures"] {
            gestures += try readGestures(node, states: machine.states, animations: animations, animators: animators,
                                         path: at + "gestures", scope: scope)
            guard gestures.count <= Limits.builtGestures else {
                throw SceneFields.error(file, node, at + "gestures", "more than \(Limits.builtGestures) gestures with each template use's own")
            }
        }
        return machine
    }

    func readStates(_ node: SceneNode, path statesPath: String = "states", scope: LayerScope? = nil) throws(ConfigError) -> [String: StateSpec] {
        var fields = try SceneFields(node, path: statesPath, file: file)
        guard fields.keys.count <= Limits.states else { throw fields.error(node, nil, "more than \(Limits.states) states") }
        var result: [String: StateSpec] = [:]
        for name in fields.keys {
            let value = fields.take(name)!
            guard Self.isName(name) else { throw fields.error(fields.keyNode(name)!, name, Self.nameRule) }
            var state = StateSpec(name: name, values: [])
            if value.isNull {                                      // `idle:` with nothing: every layer at rest
                result[name] = state
                continue
            }
            var layers = try SceneFields(value, path: fields.path(name), file: file)
            for written in layers.keys {
                let properties = layers.take(written)!
                let layer = scope?.name(written) ?? written
                let kind = try layerKind(layer, layers.keyNode(written)!, layers.path(written))
                var p = try SceneFields(properties, path: layers.path(written), file: file)
                let prototype = kind.makeLayer()
                for key in p.keys {
                    let v = p.take(key)!
                    guard let sample = prototype.value(forKeyPath: key) else {
                        let hint = SceneFields.nearest(key, in: kind.layerType.animatableKeyPaths).map { " (did you mean '\($0)'?)" } ?? ""
                        throw p.error(p.keyNode(key)!, key, "a state sets animatable properties; a \(kind.rawValue) layer has no '\(Escaped(key))'\(hint)")
                    }
                    state.values.append((layer, key, try valueSpec(v, p.path(key), like: sample, keyPath: key)))
                }
            }
            result[name] = state
        }
        return result
    }

    func readTransitions(_ node: SceneNode, states: [String: StateSpec], path: String = "transitions") throws(ConfigError) -> [TransitionSpec] {
        guard let items = node.items else {
            throw SceneFields.error(file, node, path, "expected a list of transitions, found \(node.kindName)")
        }
        var result: [TransitionSpec] = []
        for (i, item) in items.enumerated() {
            var fields = try SceneFields(item, path: "\(path)[\(i)]", file: file)
            func state(_ key: String) throws(ConfigError) -> String? {
                guard let n = fields.take(key) else { return nil }
                let name = try values.string(n, fields.path(key), maxLength: Limits.nameBytes)
                if name == "*" { return nil }
                guard states[name] != nil else { throw fields.error(n, key, "no state is named '\(Escaped(name))'") }
                return name
            }
            let from = try state("from"), to = try state("to")
            var styles: [TransitionStyle] = []
            if let n = fields.take("implicit") {
                let t = try timing(n, fields.path("implicit"))
                styles.append(.implicit(duration: t.duration, curve: t.curve))
            }
            if let n = fields.take("basic") {
                let t = try timing(n, fields.path("basic"))
                styles.append(.basic(duration: t.duration, curve: t.curve))
            }
            if let n = fields.take("spring") { styles.append(.spring(try spring(n, fields.path("spring")).spring)) }
            if let n = fields.take("instant") {
                guard try values.bool(n, fields.path("instant")) else { throw fields.error(n, "instant", "write `instant: true` or leave it out") }
                styles.append(.none)
            }
            try fields.rejectUnknown(known: ["from", "to", "implicit", "basic", "spring", "instant"])
            guard styles.count == 1 else {
                throw fields.error(item, nil, "a transition has one of implicit, basic, spring or instant (found \(styles.count))")
            }
            result.append(TransitionSpec(from: from, to: to, style: styles[0]))
        }
        return result
    }

    private func timing(_ node: SceneNode, _ path: String) throws(ConfigError) -> (duration: Double, curve: TimingFunction) {
        var fields = try SceneFields(node, path: path, file: file)
        let duration = try fields.take("duration").map { n throws(ConfigError) in try values.number(n, fields.path("duration"), in: 0...3600) } ?? 0.25
        let curve = try fields.take("curve").map { n throws(ConfigError) in try values.curve(n, fields.path("curve")) } ?? .default
        try fields.rejectUnknown(known: ["duration", "curve"])
        return (duration, curve)
    }

    // MARK: Dialogs

    /// `dialogs:` — each `{title, message, actions: [{title, style, goTo | run}], dismissOnBackground}`.
    func readDialogs(_ node: SceneNode, states: [String: StateSpec], animations: [String: NamedAnimation]) throws(ConfigError) -> [String: DialogSpec] {
        var fields = try SceneFields(node, path: "dialogs", file: file)
        guard fields.count <= Limits.dialogs else { throw fields.error(node, nil, "more than \(Limits.dialogs) dialogs") }
        var result: [String: DialogSpec] = [:]
        for name in fields.keys {
            let value = fields.take(name)!
            guard Self.isName(name) else { throw fields.error(fields.keyNode(name)!, name, Self.nameRule) }
            var d = try SceneFields(value, path: fields.path(name), file: file)
            guard let titleNode = d.take("title") else { throw d.error(value, nil, "a dialog has a `title`") }
            let title = try textTemplate(titleNode, d.path("title"))
            let message = try d.take("message").map { n throws(ConfigError) in try textTemplate(n, d.path("message")) }
            let background = try d.take("dismissOnBackground").map { n throws(ConfigError) in try values.bool(n, d.path("dismissOnBackground")) } ?? false
            var actions: [DialogSpec.Action] = []
            if let list = d.take("actions") {
                guard let items = list.items, (1...3).contains(items.count) else {
                    throw d.error(list, "actions", "a dialog has one to three actions, each {title, style, goTo or run}")
                }
                for (i, item) in items.enumerated() {
                    var a = try SceneFields(item, path: "\(d.path("actions"))[\(i)]", file: file)
                    guard let t = a.take("title") else { throw a.error(item, nil, "an action has a `title`") }
                    let actionTitle = try values.string(t, a.path("title"), maxLength: 256)
                    let kind = try a.take("style").map { n throws(ConfigError) in
                        try values.choice(n, a.path("style"), [Button.Kind.primary, .secondary, .plain]) } ?? .primary
                    var does: GestureAction?
                    if let n = a.take("goTo") {
                        let state = try values.string(n, a.path("goTo"), maxLength: Limits.nameBytes)
                        guard states[state] != nil else { throw a.error(n, "goTo", "no state is named '\(Escaped(state))'") }
                        does = .goTo(state)
                    }
                    if let n = a.take("run") {
                        let animation = try values.string(n, a.path("run"), maxLength: Limits.nameBytes)
                        guard animations[animation] != nil else { throw a.error(n, "run", "no animation is named '\(Escaped(animation))'") }
                        guard does == nil else { throw a.error(n, "run", "an action does one thing besides dismissing: goTo or run") }
                        does = .run(animation)
                    }
                    try a.rejectUnknown(known: ["title", "style", "goTo", "run"])
                    actions.append(DialogSpec.Action(title: actionTitle, kind: kind, action: does))
                }
            }
            try d.rejectUnknown(known: ["title", "message", "actions", "dismissOnBackground"])
            result[name] = DialogSpec(name: name, title: title, message: message, actions: actions, dismissesOnBackgroundTap: background)
        }
        return result
    }

    // MARK: Gestures

    func readGestures(_ node: SceneNode, states: [String: StateSpec], animations: [String: NamedAnimation],
                      animators: [String: AnimatorSpec], path gesturesPath: String = "gestures",
                      scope: LayerScope? = nil) throws(ConfigError) -> [GestureSpec] {
        guard let items = node.items else {
            throw SceneFields.error(file, node, gesturesPath, "expected a list of gestures, found \(node.kindName)")
        }
        guard items.count <= Limits.gestures else {
            throw SceneFields.error(file, node, gesturesPath, "more than \(Limits.gestures) gestures")
        }
        let recognizers = ["tap", "longPress", "swipe", "pan"]
        var result: [GestureSpec] = []
        for (i, item) in items.enumerated() {
            let path = "\(gesturesPath)[\(i)]"
            var fields = try SceneFields(item, path: path, file: file)
            let written = recognizers.filter { fields.node[$0] != nil }
            guard written.count == 1, let which = written.first else {
                throw fields.error(item, nil, "a gesture is one of tap, longPress, swipe or pan, naming its layer")
            }
            let target = fields.take(which)!
            let targetName = try values.string(target, fields.path(which), maxLength: 200)
            let layer = targetName == "root" ? targetName : scope?.name(targetName) ?? targetName
            if layer != "root" { _ = try layerKind(layer, target, fields.path(which)) }
            let recognizer: GestureSpec.Recognizer
            switch which {
            case "tap":
                recognizer = .tap(count: try fields.take("taps").map { n throws(ConfigError) in try values.integer(n, fields.path("taps"), in: 1...5) } ?? 1)
            case "longPress":
                recognizer = .longPress(duration: try fields.take("duration").map { n throws(ConfigError) in try values.number(n, fields.path("duration"), in: 0.1...10) } ?? 0.5)
            case "swipe":
                guard let d = fields.take("direction") else { throw fields.error(item, nil, "a swipe names its `direction` (left, right, up, down)") }
                let directions: [String: SwipeGestureRecognizer.Direction] = ["left": .left, "right": .right, "up": .up, "down": .down]
                let name = try values.string(d, fields.path("direction"), maxLength: 16)
                guard let direction = directions[name] else { throw fields.error(d, "direction", "'\(Escaped(name))' is not left, right, up or down") }
                recognizer = .swipe(direction)
            default:
                let drag = try fields.take("drag").map { n throws(ConfigError) in try values.bool(n, fields.path("drag")) } ?? false
                var animator: String?
                if let n = fields.take("animator") {
                    let name = try values.string(n, fields.path("animator"), maxLength: Limits.nameBytes)
                    guard animators[name] != nil else { throw fields.error(n, "animator", "no animator is named '\(Escaped(name))'") }
                    animator = name
                }
                var mode = GestureSpec.PanMode.hold
                if let n = fields.take("scrub") {
                    guard animator != nil else { throw fields.error(n, "scrub", "`scrub` moves an `animator`; name one") }
                    var s = try SceneFields(n, path: fields.path("scrub"), file: file)
                    let axisNode = s.take("axis")
                    let axis: GestureSpec.Axis = try axisNode.map { a throws(ConfigError) in
                        switch try values.string(a, s.path("axis"), maxLength: 4) {
                        case "x": return .x
                        case "y": return .y
                        case let other: throw s.error(a, "axis", "'\(Escaped(other))' is not x or y")
                        }
                    } ?? .y
                    guard let d = s.take("distance") else { throw s.error(n, nil, "a scrub names the `distance` in points that moves the animator from start to end") }
                    let distance = try values.number(d, s.path("distance"), in: -1e5...1e5)
                    guard distance != 0 else { throw s.error(d, "distance", "the distance is not 0") }
                    try s.rejectUnknown(known: ["axis", "distance"])
                    mode = .scrub(axis: axis, distance: distance)
                }
                guard drag || animator != nil else {
                    throw fields.error(item, nil, "a pan drags its layer (`drag: true`), drives an `animator`, or both")
                }
                recognizer = .pan(drag: drag, animator: animator, mode: mode)
            }
            var actions: [GestureAction] = []
            if let n = fields.take("goTo") {
                let name = try values.string(n, fields.path("goTo"), maxLength: Limits.nameBytes)
                guard states[name] != nil else { throw fields.error(n, "goTo", "no state is named '\(Escaped(name))'") }
                actions.append(.goTo(name))
            }
            if let n = fields.take("toggle") {
                guard let pair = n.items, pair.count == 2, let a = pair[0].scalar, let b = pair[1].scalar else {
                    throw fields.error(n, "toggle", "toggle names two states: [a, b]")
                }
                for (name, at) in [(a, pair[0]), (b, pair[1])] where states[name] == nil {
                    throw fields.error(at, "toggle", "no state is named '\(Escaped(name))'")
                }
                actions.append(.toggle(a, b))
            }
            if let n = fields.take("run") {
                let name = try values.string(n, fields.path("run"), maxLength: Limits.nameBytes)
                guard animations[name] != nil else { throw fields.error(n, "run", "no animation is named '\(Escaped(name))'") }
                actions.append(.run(name))
            }
            if let n = fields.take("show") {
                let name = try values.string(n, fields.path("show"), maxLength: Limits.nameBytes)
                guard dialogs[name] != nil else {
                    throw fields.error(n, "show", "no dialog is named '\(Escaped(name))' (dialogs: \(dialogs.keys.sorted().joined(separator: ", ")))")
                }
                actions.append(.show(name))
            }
            let allowed = which == "pan" ? ["pan", "drag", "animator", "scrub"]
                : [which, "goTo", "toggle", "run", "show"] + (which == "tap" ? ["taps"] : which == "longPress" ? ["duration"] : ["direction"])
            try fields.rejectUnknown(known: allowed)
            if which != "pan" {
                guard actions.count == 1 else { throw fields.error(item, nil, "a \(which) does one thing: goTo, toggle, run or show") }
            }
            result.append(GestureSpec(layer: layer, recognizer: recognizer, action: actions.first, elementPath: path, owner: scope?.owner))
        }
        return result
    }
}
