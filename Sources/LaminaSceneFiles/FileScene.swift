import LaminaSceneSyntax
import LaminaVideo
import LaminaWidgets

/// A scene built from a scene file (`lamina run --scene FILE`): its layers, states,
/// transitions, gestures and bindings as `SceneDocument` describes them. A reload builds a
/// new one from the edited file, handing it the bindings' current values.
public final class FileScene: ControllableScene, LocalizableScene {
    public static let name = "scene-file"
    public static let summary = "a scene read from a YAML file (docs/scene-files.md)"

    /// What a file scene is built from: the compiled file and the bindings' values.
    public struct Settings: SceneSettings {
        /// The compiled file.
        public var document: SceneDocument
        /// Values that replace the file's own, by binding name (a reload's running values).
        public var bindingValues: [String: BindingValue]
        /// The state to start in instead of the initial one, when the file still has it (a
        /// reload's running state).
        public var state: String?
        /// The state each template use starts in, by the use's name, when the file still has
        /// that use and state (a reload's running states).
        public var useStates: [String: String] = [:]
        /// The players of the running scene's named video layers (a reload's running videos): a
        /// layer of the same name and source takes its player on, so the video plays on where
        /// it was, at its running rate, looping and play state, instead of starting again.
        public var videoPlayers: [String: VideoPlayer] = [:]

        /// Settings for `document`, with `bindingValues` kept where the file still declares a
        /// binding of that name and kind.
        public init(document: SceneDocument, bindingValues: [String: BindingValue] = [:]) {
            self.document = document
            self.bindingValues = bindingValues
        }

        /// A file scene's settings come from its file, never from a config table.
        public init(from table: SettingsTable) throws(ConfigError) {
            throw ConfigError(file: table.file, field: "run.scene", reason: "a scene file's scene is built from its file")
        }
    }

    /// The compiled file this scene shows.
    public let document: SceneDocument
    /// The bindings' current values.
    public private(set) var bindingValues: [String: BindingValue] = [:]
    /// The state the scene is in (nil: the layers as the file wrote them).
    public internal(set) var currentState: String? {
        didSet {
            if currentState != oldValue && publishesStates {
                context.publish("state", ["state": currentState.map(ControlValue.string) ?? .null])
            }
        }
    }
    /// False while a reload puts the scene back in the state it was in: for whoever listens,
    /// the state did not change.
    var publishesStates = true

    let context: SceneContext
    /// Layers by name (`root` is the scene's root layer).
    private(set) var layers: [String: Layer] = [:]
    /// Each state-controlled property's value as the file wrote it, by the states' owner
    /// (`""`: the scene's own states; otherwise a template use's name).
    var restingValues: [String: [PropertyID: AnimatableValue]] = [:]
    /// The state each template use with states of its own is in, by the use's name (absent:
    /// none yet, its layers as the file wrote them).
    public internal(set) var useStates: [String: String] = [:]
    private var propertyBindings: [String: [(layer: Layer, keyPath: String, value: ValueSpec)]] = [:]
    private var textBindings: [String: [(layer: TextLayer, text: TextTemplate)]] = [:]
    /// The language the file's texts are shown in (the runtime's; nil: as written).
    var language: String?
    /// Every text written out (not a lone binding) when the file has translations: shown
    /// again when the language changes.
    var translatableTexts: [(layer: TextLayer, text: TextTemplate)] = []
    /// Texts reported as having no translation in the language shown.
    var reportedUntranslated: Set<String> = []
    /// The file's scroll views (a `scroll` layer's viewport is its `layer`), kept while the
    /// scene runs: their recognizers hold them weakly.
    private(set) var scrollViews: [String: ScrollView] = [:]
    private var unnamedScrollViews: [ScrollView] = []
    /// The containers of layers with a `layout:`, outermost last (laid out again, inner
    /// ones first, after states and bindings change sizes).
    private var layouts: [any LayoutContainer] = []
    /// The controls of the file's control layers (`button`, `toggle`, `slider`, `progress`),
    /// by layer name when named; kept while the scene runs.
    var buttons: [String: Button] = [:]
    var controls: [AnyObject] = []
    /// The file's list layers' rows (each `ListView` holds its data source weakly).
    var listRows: [ListRows] = []
    /// The players of the file's named video layers (each layer keeps its own).
    private(set) var videoPlayers: [String: VideoPlayer] = [:]
    /// The running players a reload hands on, until a layer takes its own (see
    /// ``Settings/videoPlayers``); those not taken go when the scene is built.
    var keptVideoPlayers: [String: VideoPlayer] = [:]
    /// The file's lists, by layer name when named.
    var lists: [String: ListView] = [:]
    /// What shows each number binding a control follows (a slider's thumb, a progress's fill).
    var controlBindings: [String: [(Double) -> Void]] = [:]
    /// What shows each string binding a text box follows (its text).
    var textControlBindings: [String: [(String) -> Void]] = [:]
    private var animationsToStart: [(Layer, [(key: String, animation: AnimationSpec)])] = []
    var animators: [String: PropertyAnimator] = [:]
    /// The dialog on screen (`dialogs:`), kept while shown.
    var shownDialog: Dialog?
    var gestureState = GestureState()

    struct PropertyID: Hashable {
        var layer: String
        var keyPath: String
    }

    /// Per-pan memory: where a dragged layer started and an animator's fraction at grab.
    struct GestureState {
        var dragStart: [ObjectIdentifier: Point] = [:]
        var scrubStart: [String: Double] = [:]
        /// Each scrubbed animator's state at the start of its run and the one it runs to.
        var scrubEnds: [String: (from: String?, to: String?)] = [:]
    }

    public init(context: SceneContext, settings: Settings) throws {
        self.context = context
        document = settings.document
        language = context.language
        keptVideoPlayers = settings.videoPlayers
        defer { keptVideoPlayers = [:] }
        for binding in document.bindings {
            if let kept = settings.bindingValues[binding.name], kept.hasSameKind(as: binding.value) {
                bindingValues[binding.name] = kept
            } else {
                bindingValues[binding.name] = binding.value
            }
        }
        setBuiltInValues(screen: context.screenSize, keyboard: context.keyboardFrame)
        layers["root"] = context.rootLayer
        Transaction.begin()
        Transaction.disableActions = true                      // the file's values are where things start
        for spec in document.layers { context.rootLayer.addSublayer(build(spec)) }
        let owners = [("", document.states)] + document.useStates.map { ($0.key, $0.value.states) }
        for (owner, states) in owners {
            for state in states.values {
                for entry in state.values {
                    let id = PropertyID(layer: entry.layer, keyPath: entry.keyPath)
                    if restingValues[owner, default: [:]][id] == nil {
                        restingValues[owner, default: [:]][id] = layers[entry.layer]?.value(forKeyPath: entry.keyPath)
                    }
                }
            }
        }
        for (owner, machine) in document.useStates.sorted(by: { $0.key < $1.key }) {
            if let kept = settings.useStates[owner], machine.states[kept] != nil {
                publishesStates = false                         // a reload keeps where each use was
                apply(state: kept, owner: owner)
                publishesStates = true
            } else if let initial = machine.initialState {
                apply(state: initial, owner: owner)
            }
        }
        if let kept = settings.state, document.states[kept] != nil {
            publishesStates = false                             // a reload keeps where the scene was
            apply(state: kept)
            publishesStates = true
        } else if let initial = document.initialState {
            apply(state: initial)
        }
        Transaction.commit()
        startAnimations()
        for animator in document.animators.values {
            animators[animator.name] = PropertyAnimator(duration: animator.duration, curve: animator.curve, tree: context.layerTree)
        }
        for gesture in document.gestures { attach(gesture) }
        // The built-in bindings follow the keyboard (with the implicit animation, as it slides)
        // and the screen (at once).
        context.onKeyboardFrameChange { [weak self] frame in
            guard let self else { return }
            self.setBuiltIn("keyboardHeight", frame?.height ?? 0)
        }
        context.onScreenSizeChange { [weak self] size in
            guard let self else { return }
            Transaction.begin()
            Transaction.disableActions = true
            self.setBuiltIn("screenWidth", size.width)
            self.setBuiltIn("screenHeight", size.height)
            Transaction.commit()
        }
    }

    private func setBuiltInValues(screen: Size, keyboard: Rect?) {
        bindingValues["screenWidth"] = .number(screen.width)
        bindingValues["screenHeight"] = .number(screen.height)
        bindingValues["keyboardHeight"] = .number(keyboard?.height ?? 0)
    }

    private func setBuiltIn(_ name: String, _ value: Double) {
        guard bindingValues[name] != .number(value) else { return }
        assign(name, .number(value))
    }

    /// The layer named `name` in the file (`root` for the scene's root).
    public func layer(named name: String) -> Layer? { layers[name] }

    /// The player of the video layer named `name` in the file (to drive it from Swift).
    public func videoPlayer(named name: String) -> VideoPlayer? { videoPlayers[name] }

    // MARK: Building

    /// Builds `spec`'s layer tree. A list row's layers (`row` given) are not named in the
    /// scene, and what follows a binding or an item's field is kept in `row`, shown again for
    /// each item the row shows.
    func build(_ spec: LayerSpec, row: RowBindings? = nil) -> Layer {
        let scroll = spec.kind == .scroll ? ScrollView(context: context, size: .zero) : nil
        let list = spec.kind == .list ? makeList(spec) : nil
        let control = spec.kind.isControl ? makeControl(spec) : nil
        let layer = scroll?.layer ?? list?.layer ?? control ?? spec.kind.makeLayer()
        layer.name = spec.name
        if row == nil, let name = spec.name { layers[name] = layer }
        if let scroll {
            if let name = spec.name { scrollViews[name] = scroll } else { unnamedScrollViews.append(scroll) }
        }
        let lookup: (String) -> BindingValue? = row?.lookup ?? { self.bindingValues[$0] }
        for setup in spec.setup { apply(setup, to: layer) }
        if let video = layer as? VideoLayer, row == nil, let player = attachPlayer(to: video, spec), let name = spec.name {
            videoPlayers[name] = player
        }
        for (keyPath, value) in spec.properties where (control == nil && list == nil) || keyPath != "bounds" {   // a control's size is its own
            if let row {
                if !value.bindingNames.isEmpty { row.properties.append((layer, keyPath, value)) }
            } else {
                for name in Set(value.bindingNames) { propertyBindings[name, default: []].append((layer, keyPath, value)) }
            }
            layer.setValue(resolve(value, lookup), forKeyPath: keyPath)
        }
        if let text = spec.text, let textLayer = layer as? TextLayer {
            if let row {
                row.texts.append((textLayer, text))
            } else {
                for name in text.bindingNames { textBindings[name, default: []].append((textLayer, text)) }
                if !document.languages.isEmpty && text.source != nil { translatableTexts.append((textLayer, text)) }
            }
            textLayer.string = text.text(in: language, lookup)
        }
        let content = scroll?.contentLayer ?? layer
        var built: [(Layer, LayerSpec)] = []
        for sub in spec.sublayers {
            let child = build(sub, row: row)
            content.addSublayer(child)
            built.append((child, sub))
        }
        if let layout = spec.layout { lay(out: content, with: layout, items: built) }
        if let scroll { configure(scroll, spec.setup) }
        if !spec.animations.isEmpty { animationsToStart.append((layer, spec.animations)) }
        return layer
    }

    /// Makes `container` a stack or a grid of `items` (already its sublayers), each as long as
    /// its `layoutSize` says in a stack; a sublayer that is a layout itself is laid out again
    /// for the size it gets.
    private func lay(out container: Layer, with layout: LayoutSpec, items: [(Layer, LayerSpec)]) {
        let nestedByLayer = Dictionary(layouts.map { (ObjectIdentifier($0.layer), $0) }, uniquingKeysWith: { a, _ in a })
        switch layout {
        case .stack(let axis, let spacing, let alignment, let distribution, let padding):
            let stack = StackLayout(container: container, axis: axis, spacing: spacing, alignment: alignment,
                                    distribution: distribution, padding: padding)
            for (layer, spec) in items {
                if let inner = nestedByLayer[ObjectIdentifier(layer)] {
                    stack.add(inner, size: spec.layoutSize ?? .fit)
                } else {
                    stack.add(layer, size: spec.layoutSize ?? .fit)
                }
            }
            layouts.append(stack)
        case .grid(let columns, let spacing, let rowHeight, let fillsCells, let padding):
            let grid = GridLayout(container: container, columns: columns, spacing: spacing, rowHeight: rowHeight,
                                  fillsCells: fillsCells, padding: padding)
            for (layer, _) in items { grid.add(layer) }
            layouts.append(grid)
        }
    }

    /// Lays every `layout:` out again, inner ones first: after a state or a binding changed
    /// a size.
    func layOutAgain() {
        guard !layouts.isEmpty else { return }
        Transaction.begin()
        Transaction.disableActions = true
        for layout in layouts { layout.layOut() }
        Transaction.commit()
    }

    /// A `scroll` layer's settings, once its bounds and content are in: without a
    /// `contentSize` the content is as large as its sublayers reach.
    private func configure(_ scroll: ScrollView, _ setup: [LayerSetup]) {
        var size: Size?
        for entry in setup {
            switch entry {
            case .contentSize(let s): size = s
            case .paging(let on): scroll.isPagingEnabled = on
            case .bounces(let on): scroll.bounces = on
            case .decelerationRate(let rate): scroll.decelerationRate = rate
            case .showsIndicators(let on): scroll.showsIndicators = on
            default: break
            }
        }
        scroll.contentSize = size ?? scroll.contentLayer.sublayers.reduce(Size.zero) { extent, child in
            let frame = child.frame
            return Size(width: max(extent.width, frame.maxX), height: max(extent.height, frame.maxY))
        }
    }

    private func apply(_ setup: LayerSetup, to layer: Layer) {
        switch setup {
        case .path(let path): (layer as? ShapeLayer)?.path = path
        case .fillRule(let rule): (layer as? ShapeLayer)?.fillRule = rule
        case .lineCap(let cap): (layer as? ShapeLayer)?.lineCap = cap
        case .lineJoin(let join): (layer as? ShapeLayer)?.lineJoin = join
        case .lineDashPattern(let dashes): (layer as? ShapeLayer)?.lineDashPattern = dashes
        case .alignment(let alignment): (layer as? TextLayer)?.alignmentMode = alignment
        case .wrapped(let wrapped): (layer as? TextLayer)?.isWrapped = wrapped
        case .truncation(let mode): (layer as? TextLayer)?.truncationMode = mode
        case .numberOfLines(let count): (layer as? TextLayer)?.numberOfLines = count
        case .lineHeightMultiple(let multiple): (layer as? TextLayer)?.lineHeightMultiple = multiple
        case .font(let font): (layer as? TextLayer)?.font = font
        case .gradientColors(let colors): (layer as? GradientLayer)?.colors = colors
        case .gradientLocations(let locations): (layer as? GradientLayer)?.locations = locations
        case .gradientType(let kind): (layer as? GradientLayer)?.kind = kind
        case .instanceCount(let count): (layer as? ReplicatorLayer)?.instanceCount = count
        case .contents(let image): layer.contents = image
        case .contentsGravity(let gravity): layer.contentsGravity = gravity
        case .contentSize, .paging, .bounces, .decelerationRate, .showsIndicators: break   // `configure(_:_:)`
        case .title, .buttonStyle, .progressStyle, .enabled, .on, .range, .step, .indeterminate, .controlBinding:
            break                                                                        // `makeControl(_:)`
        case .listItems, .listRowTemplate, .rowHeight: break                            // `makeList(_:)`
        case .placeholder, .maximumLength: break                                         // `makeControl(_:)`
        case .videoSource, .loops, .autoplay, .playbackRate, .overlayPlane, .muted, .volume: break                       // `attachPlayer(to:_:)`
        }
    }

    /// Starts the animations the file puts on its layers, once they are in the tree; a begin
    /// time in the file counts from now.
    private func startAnimations() {
        for (layer, animations) in animationsToStart {
            for (key, animation) in animations { add(animation.starting(at: context.now), to: layer, key: key) }
        }
        animationsToStart = []
    }

    func add(_ animation: AnimationSpec, to layer: Layer, key: String) {
        switch animation {
        case .single(let a): layer.add(a, forKey: key)
        case .group(let g): layer.add(g, forKey: key)
        }
    }

    func resolve(_ value: ValueSpec) -> AnimatableValue { resolve(value) { bindingValues[$0] } }

    /// `value` with bindings (and a list row's fields) read through `lookup`.
    func resolve(_ value: ValueSpec, _ lookup: (String) -> BindingValue?) -> AnimatableValue {
        switch value {
        case .literal(let v): return v
        case .binding(let name):
            switch lookup(name) {
            case .number(let v)?: return .scalar(v)
            case .color(let c)?: return .color(c)
            default: preconditionFailure("binding \(name) was checked to be a number or colour")
            }
        case .expression(let expression):
            switch expression.evaluate(lookup) {
            case .number(let v): return .scalar(SceneExpression.clamped(v))
            case .colour(let c): return .color(c)
            case .boolean(let b): return .bool(b)
            case .text: preconditionFailure("an expression giving text was checked to stand in text alone")
            }
        case .components(let sample, let parts):
            let n = parts.map { part -> Double in
                switch part {
                case .number(let x): return x
                case .binding(let name):
                    guard case .number(let v)? = lookup(name) else { preconditionFailure("binding \(name) was checked to be a number") }
                    return v
                case .expression(let e): return e.number(lookup)
                }
            }
            switch sample {
            case .point: return .point(Point(x: n[0], y: n[1]))
            case .size: return .size(Size(width: n[0], height: n[1]))
            default: return .rect(Rect(x: n[0], y: n[1], width: max(n[2], 0), height: max(n[3], 0)))   // a bound size below 0 is none
            }
        }
    }

    // MARK: Bindings

    /// Sets a binding (what the control socket and a config reload do): every property and
    /// text that refers to it follows, with the current transaction's implicit animation.
    /// A name the file does not declare, or a value of another kind, is refused.
    public func setBinding(_ name: String, to value: BindingValue) throws(ConfigError) {
        guard let current = bindingValues[name] else {
            throw ConfigError(file: document.file, field: "bindings.\(name)",
                              reason: "no binding of that name (declared: \(document.bindings.map(\.name).joined(separator: ", ")))")
        }
        guard current.hasSameKind(as: value) else {
            throw ConfigError(file: document.file, field: "bindings.\(name)", reason: "the binding is a \(current.kindName), not a \(value.kindName)")
        }
        if let builtIn = SceneDocument.builtInBindings.first(where: { $0.name == name }) {
            throw ConfigError(file: document.file, field: "bindings.\(name)", reason: "'\(name)' is set by Lamina (\(builtIn.meaning))")
        }
        if case .string = value {
            try document.checkTextBudget({ $0 == name ? value : bindingValues[$0] }, field: "bindings.\(name)")
        }
        var value = value
        if case .list(let items) = value {
            for rows in listRows where rows.binding == name {
                do {
                    value = .list(try rows.row.convert(items))
                } catch {
                    throw ConfigError(file: document.file, field: "bindings.\(name)", reason: error.reason)
                }
            }
        }
        assign(name, value)
    }

    /// Gives binding `name` its new `value` (checked) and shows it everywhere it is read.
    private func assign(_ name: String, _ value: BindingValue) {
        bindingValues[name] = value
        for rows in listRows where rows.binding == name || rows.reads.contains(name) { rows.reload() }
        for (layer, keyPath, spec) in propertyBindings[name] ?? [] { layer.setValue(resolve(spec), forKeyPath: keyPath) }
        for (layer, text) in textBindings[name] ?? [] { layer.string = text.text(in: language) { bindingValues[$0] } }
        if case .number(let v) = value { for follow in controlBindings[name] ?? [] { follow(v) } }
        if case .string(let s) = value { for follow in textControlBindings[name] ?? [] { follow(s) } }
        if propertyBindings[name] != nil { layOutAgain() }
    }
}
