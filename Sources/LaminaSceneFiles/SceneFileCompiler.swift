import LaminaSceneSyntax
import LaminaSystem

/// Turns a scene file's tree into a checked `SceneDocument`: every key known, every value of
/// its property's kind, every name it refers to defined, every count bounded. The first
/// problem is thrown as a `ConfigError` naming `file:line:column`, the element's path and the
/// reason. Nothing here touches the screen; `FileScene` builds what this checked.
struct SceneFileCompiler {
    /// Bounds beyond the reader's on what a file may ask to build: the cost model
    /// (`docs/scene-files.md`, Limits). `run`, `check-config`, reloads and `switch-scene` all
    /// compile through here, so they accept and refuse the same files.
    enum Limits {
        /// Layers written, templates counted as built.
        static let layers = 2_000
        /// Layers drawn: replicator instances counted (a replicator of 256 holding one of
        /// 256 draws 65,536). The product of nested instance counts is what memory and frame
        /// time follow.
        static let drawnLayers = 20_000
        static let layerDepth = 32
        static let templateDepth = 8
        static let templates = 256
        /// Parameters one template declares (and so arguments one use passes).
        static let parameters = 64
        /// Nodes all template uses build together (each use copies its template's tree).
        static let expandedNodes = SceneFileLimits.maximumNodes
        /// Bytes of text all template uses build together, after `{parameter}` substitution.
        static let expandedBytes = 4 << 20
        /// Bytes of text all text layers show together, with the bindings' values put in and
        /// replicator instances counted; `set-binding` is refused past it too.
        static let textBytes = 64 * 1024
        /// Layers drawn with a shadow, replicator instances counted: a shadow is blurred
        /// every frame its layer is drawn (a full-screen one costs tens of milliseconds).
        static let shadowedLayers = 8
        /// Points the shapes' paths are flattened into (at their own scale, with the default
        /// tolerance), replicator instances counted.
        static let pathPoints = 1_000_000
        static let states = 256
        static let gestures = 256
        static let animations = 1_024
        static let animators = 256
        static let keyframes = 1_024
        static let bindings = 256
        static let dialogs = 64
        /// Gestures with each template use's own counted.
        static let builtGestures = 2_048
        static let images = 32
        /// Video layers, each a decoder with a thread of its own and a few frames in memory.
        static let videos = 4
        /// Faces one file names (`font`).
        static let fonts = 16
        /// The widest and tallest a control or scroll layer is, in pixels (it draws its parts at that size).
        static let controlSide = 4096
        /// Pixels of one image.
        static let imagePixels = 4096 * 4096
        /// Pixels of all images together (decoded at 4 bytes a pixel: 64 MiB).
        static let totalImagePixels = 4096 * 4096
        static let replicatorInstances = 256
        /// Catalogs in a file's `translations` folder (one per language).
        static let catalogs = 64
        /// The most lines a text layer's `lines` limits it to.
        static let textLines = 10_000
        /// Bytes of a name (besides its 64 characters).
        static let nameBytes = 256
    }

    /// A template as `templates:` defines it: its layer and its parameters' defaults (a
    /// null default: the parameter is required).
    struct Template {
        var layer: SceneNode
        var parameters: [String: SceneNode]
        /// What each use carries of its own (`states`, `initialState`, `transitions`,
        /// `gestures`), compiled per use with the template's layer names under the use's.
        var behaviour: [String: SceneNode] = [:]
    }

    /// A named use of a template with states or gestures, its behaviour nodes with the
    /// arguments put in: compiled once the scene's animations and animators are read.
    struct PendingUse {
        var owner: String
        var behaviour: [String: SceneNode]
        var path: String
    }

    let file: String
    /// The folder the file is in: images resolve here and may not leave it.
    let folder: String
    let values: SceneValueReader
    /// Images already loaded, by resolved path.
    var images: [String: PixelBuffer] = [:]
    /// Pixels of the images loaded so far (`Limits.totalImagePixels`).
    var imagePixels = 0
    /// Video layers so far.
    var videoCount = 0
    /// Faces already loaded, by what `font` wrote.
    var fonts: [String: Font] = [:]
    /// `fallbackFonts:`, given to every face the file's text layers draw with.
    var fallbackFonts: [Font] = []
    /// The default face with `fallbackFonts`, for text layers that name no font.
    var defaultFontWithFallbacks: Font?
    /// `translations:` — each language's catalog and its path, read before any text.
    var catalogs: [(language: String, path: String, catalog: MessageCatalog)] = []
    var layerCount = 0
    var animationCount = 0
    /// Every named layer's kind, for states, gestures and animations to check against.
    var layerKinds: [String: LayerSpec.Kind] = [:]
    var bindings: [String: BindingValue] = [:]
    var templates: [String: Template] = [:]
    /// Nodes and text bytes template uses have built so far (`Limits.expandedNodes`,
    /// `Limits.expandedBytes`).
    var expandedNodes = 0
    var expandedBytes = 0
    /// The file's dialogs, for gestures to show.
    var dialogs: [String: DialogSpec] = [:]
    /// Template uses whose states and gestures are still to compile.
    var pendingUses: [PendingUse] = []
    /// False while a list's row template compiles: its layers are built once per row on
    /// screen, so their names (ignored) address none of them.
    var registersNames = true
    /// Each list binding's items as the file writes them, read when a list layer gives
    /// them their row's kinds.
    var listNodes: [String: SceneNode] = [:]

    static let topLevelKeys = ["lamina", "background", "bindings", "templates", "layers", "states", "initialState",
                               "transitions", "animations", "animators", "dialogs", "gestures", "fallbackFonts",
                               "translations"]

    /// When compiling must have finished (`SystemClock` seconds): the cost model keeps every
    /// accepted file far inside it, so this only stops what the model missed.
    let deadline: Double
    /// The time compiling may take (seconds), named in the error when it runs over.
    let timeLimit: Double

    init(file: String, timeLimit: Double = SceneFiles.compileTimeLimit) {
        self.file = file
        self.timeLimit = timeLimit
        deadline = SystemClock.shared.now + timeLimit
        let directory = Paths.directory(of: file)
        folder = directory.isEmpty ? "." : directory
        values = SceneValueReader(file: file)
    }

    /// The document for `root`, read from `file`.
    static func compile(_ root: SceneNode, file: String, timeLimit: Double = SceneFiles.compileTimeLimit) throws(ConfigError) -> SceneDocument {
        var compiler = SceneFileCompiler(file: file, timeLimit: timeLimit)
        return try compiler.document(root)
    }

    mutating func document(_ root: SceneNode) throws(ConfigError) -> SceneDocument {
        var top = try SceneFields(root, path: "", file: file)
        guard let version = top.take("lamina") else {
            throw SceneFields.error(file, root, "", "a scene file starts with `lamina: 1` (the format's version)")
        }
        guard version.scalar == "1" else {
            throw SceneFields.error(file, version, "lamina", "this Lamina reads scene files of version 1")
        }
        let background = try top.take("background").map { node throws(ConfigError) in try values.color(node, "background") } ?? nil

        if let node = top.take("fallbackFonts") { try readFallbackFonts(node) }
        if let node = top.take("translations") { try readTranslations(node) }

        var declared: [SceneDocument.Binding] = []
        if let node = top.take("bindings") { declared = try readBindings(node) }
        for binding in declared { bindings[binding.name] = binding.value }
        for (name, meaning) in SceneDocument.builtInBindings {
            if bindings[name] != nil, let node = top.node["bindings"] {
                throw SceneFields.error(file, node, "bindings.\(name)", "'\(name)' is set by Lamina (\(meaning)): a file reads it, never declares it")
            }
            bindings[name] = .number(0)
        }

        if let node = top.take("templates") { try readTemplates(node) }
        var layers: [LayerSpec] = []
        if let node = top.take("layers") {
            guard let items = node.items else { throw top.error(node, "layers", "expected a list of layers, found \(node.kindName)") }
            for (i, item) in items.enumerated() {
                layers.append(try layer(item, path: "layers[\(i)]", namePrefix: "", depth: 0, templateDepth: 0))
            }
        }
        var states: [String: StateSpec] = [:]
        if let node = top.take("states") { states = try readStates(node) }
        var initialState: String?
        if let node = top.take("initialState") {
            let name = try values.string(node, "initialState", maxLength: Limits.nameBytes)
            guard states[name] != nil else { throw top.error(node, "initialState", "no state is named '\(Escaped(name))'") }
            initialState = name
        }
        var transitions: [TransitionSpec] = []
        if let node = top.take("transitions") { transitions = try readTransitions(node, states: states) }
        var animations: [String: NamedAnimation] = [:]
        if let node = top.take("animations") { animations = try readNamedAnimations(node) }
        var animators: [String: AnimatorSpec] = [:]
        if let node = top.take("animators") { animators = try readAnimators(node, states: states) }
        var dialogs: [String: DialogSpec] = [:]
        if let node = top.take("dialogs") { dialogs = try readDialogs(node, states: states, animations: animations) }
        self.dialogs = dialogs
        var gestures: [GestureSpec] = []
        if let node = top.take("gestures") {
            gestures = try readGestures(node, states: states, animations: animations, animators: animators)
        }
        try top.rejectUnknown(known: Self.topLevelKeys)
        for (i, binding) in declared.enumerated() { if case .list = binding.value { declared[i].value = bindings[binding.name]! } }
        var useStates: [String: StateMachine] = [:]
        for use in pendingUses {
            let machine = try readBehaviour(of: use, animations: animations, animators: animators, gestures: &gestures)
            useStates[use.owner] = machine
        }
        let cost = SceneCost(layers, states: states, animations: animations, useStates: useStates)
        guard cost.drawnLayers <= Limits.drawnLayers else {
            throw SceneFields.error(file, root, "layers", "draws \(cost.drawnLayers == Int.max ? "too many" : "\(cost.drawnLayers)") layers counting replicator instances; a scene draws at most \(Limits.drawnLayers)")
        }
        guard cost.pathPoints <= Limits.pathPoints else {
            throw SceneFields.error(file, root, "layers", "draws paths of \(cost.pathPoints == Int.max ? "too many" : "\(cost.pathPoints)") points counting replicator instances (curves are cut into chords within 0.1 px); a scene draws at most \(Limits.pathPoints)")
        }
        guard cost.shadowedLayers <= Limits.shadowedLayers else {
            throw SceneFields.error(file, root, "layers", "draws \(cost.shadowedLayers == Int.max ? "too many" : "\(cost.shadowedLayers)") layers with a shadow counting replicator instances (shadowOpacity set by a property, a state or an animation); a scene draws at most \(Limits.shadowedLayers)")
        }
        let text = cost.textBytes { bindings[$0] }
        guard text <= Limits.textBytes else {
            throw SceneFields.error(file, root, "layers", "shows \(text == Int.max ? "too many" : "\(text)") bytes of text (bindings' values and replicator instances counted); a scene shows at most \(Limits.textBytes)")
        }
        return SceneDocument(file: file, background: background, bindings: declared, layers: layers, states: states,
                             initialState: initialState, transitions: transitions, useStates: useStates, animations: animations,
                             animators: animators, dialogs: dialogs, gestures: gestures,
                             languages: catalogs.map(\.language), defaultFont: defaultFontWithFallbacks, cost: cost)
    }

    // MARK: Bindings and templates

    private mutating func readBindings(_ node: SceneNode) throws(ConfigError) -> [SceneDocument.Binding] {
        var fields = try SceneFields(node, path: "bindings", file: file)
        guard fields.keys.count <= Limits.bindings else {
            throw fields.error(node, nil, "more than \(Limits.bindings) bindings")
        }
        var result: [SceneDocument.Binding] = []
        for name in fields.keys {
            let value = fields.take(name)!
            let path = fields.path(name)
            guard Self.isName(name) else { throw fields.error(fields.keyNode(name)!, name, Self.nameRule) }
            var typed = try SceneFields(value, path: path, file: file)
            guard typed.keys.count == 1, let kind = typed.keys.first else {
                throw fields.error(value, name, "a binding is one of {number: 0}, {string: \"text\"}, {colour: \"#RRGGBB\"}, {list: [{field: value}, ...]}")
            }
            let v = typed.take(kind)!
            switch kind {
            case "number": result.append(.init(name: name, value: .number(try values.number(v, path + ".number"))))
            case "string", "text": result.append(.init(name: name, value: .string(try values.string(v, path + "." + kind))))
            case "list": result.append(.init(name: name, value: .list(try listItems(v, path + ".list", name: name))))
            case "colour", "color":
                guard let c = try values.color(v, path + "." + kind) else {
                    throw fields.error(v, name, "a colour binding needs a colour, not none")
                }
                result.append(.init(name: name, value: .color(c)))
            default:
                throw fields.error(typed.keyNode(kind)!, name, "a binding's kind is number, string, colour or list, not '\(Escaped(kind))'")
            }
        }
        return result
    }

    private mutating func readTemplates(_ node: SceneNode) throws(ConfigError) {
        var fields = try SceneFields(node, path: "templates", file: file)
        guard fields.count <= Limits.templates else {
            throw fields.error(node, nil, "more than \(Limits.templates) templates")
        }
        for name in fields.keys {
            let value = fields.take(name)!
            guard Self.isName(name) else { throw fields.error(fields.keyNode(name)!, name, Self.nameRule) }
            var t = try SceneFields(value, path: fields.path(name), file: file)
            guard let body = t.take("layer") else {
                throw t.error(value, nil, "a template has `layer:` (what it builds) and may have `parameters:` (their defaults), `states:`, `initialState:`, `transitions:` and `gestures:` of each use's own")
            }
            var behaviour: [String: SceneNode] = [:]
            for key in Self.behaviourKeys { if let n = t.take(key) { behaviour[key] = n } }
            var defaults: [String: SceneNode] = [:]
            if let parameters = t.take("parameters") {
                let p = try SceneFields(parameters, path: t.path("parameters"), file: file)
                guard p.count <= Limits.parameters else {
                    throw p.error(parameters, nil, "more than \(Limits.parameters) parameters")
                }
                for key in p.keys {
                    guard Self.isName(key) else { throw p.error(p.keyNode(key)!, key, Self.nameRule) }
                    defaults[key] = p[key]!
                }
            }
            guard body.entries != nil else { throw t.error(body, "layer", "a template's layer is a mapping of keys") }
            try t.rejectUnknown(known: ["layer", "parameters"] + Self.behaviourKeys)
            templates[name] = Template(layer: body, parameters: defaults, behaviour: behaviour)
        }
    }

    /// A use of a template, expanded: the template's layer with `$parameter` values and
    /// `{parameter}` text replaced by the arguments, and the use's other keys laid over it.
    /// Linear in what it builds, which `Limits.expandedNodes` and `.expandedBytes` bound.
    mutating func expand(_ use: SceneNode, template name: String, fields: inout SceneFields) throws(ConfigError)
        -> (layer: SceneNode, behaviour: [String: SceneNode]) {
        guard let template = templates[name] else {
            throw fields.error(use, "use", "no template is named '\(Escaped(name))' (defined: \(templates.keys.sorted().joined(separator: ", ")))")
        }
        var arguments = template.parameters
        if let given = fields.take("with") {
            let with = try SceneFields(given, path: fields.path("with"), file: file)
            for key in with.keys {
                guard template.parameters[key] != nil else {
                    let known = template.parameters.isEmpty ? "it has none" : "parameters: \(template.parameters.keys.sorted().joined(separator: ", "))"
                    throw with.error(with.keyNode(key)!, key, "template '\(name)' has no parameter '\(Escaped(key))' (\(known))")
                }
                arguments[key] = with[key]!
            }
        }
        for key in arguments.keys.sorted() where arguments[key]!.isNull {
            throw fields.error(use, "with", "template '\(name)' needs a value for its parameter '\(key)'")
        }
        let sizes = arguments.mapValues(\.nodeCount)
        var body = try substitute(template.layer, arguments, sizes: sizes, at: use, path: fields.path("use"))
        // The use's own keys (its name, position...) override the template's.
        guard case .mapping(let entries) = body.value else {
            throw SceneFields.error(file, body, fields.path("use"), "a template's layer is a mapping")
        }
        var overrides: [SceneNode.Entry] = []
        var overridden: Set<String> = []
        for key in fields.keys where key != "use" && key != "with" {
            overridden.insert(key)
            overrides.append(SceneNode.Entry(key: fields.keyNode(key)!, value: fields.take(key)!))
        }
        body.value = .mapping(entries.filter { !overridden.contains($0.key.scalar ?? "") } + overrides)
        var behaviour: [String: SceneNode] = [:]
        for (key, node) in template.behaviour {
            behaviour[key] = try substitute(node, arguments, sizes: sizes, at: use, path: fields.path("use"))
        }
        return (body, behaviour)
    }

    /// `node` with the arguments put in, counting what it builds against the budgets.
    private mutating func substitute(_ node: SceneNode, _ arguments: [String: SceneNode], sizes: [String: Int],
                                     at use: SceneNode, path: String) throws(ConfigError) -> SceneNode {
        expandedNodes += 1
        if expandedNodes % 4096 == 0 { try checkTime(use, path) }
        if expandedNodes > Limits.expandedNodes {
            throw SceneFields.error(file, use, path, "template uses build more than \(Limits.expandedNodes) nodes")
        }
        switch node.value {
        case .scalar(let text):
            if let name = SceneValueReader.bindingReference(node), let argument = arguments[name] {
                expandedNodes += sizes[name]! - 1
                if expandedNodes > Limits.expandedNodes {
                    throw SceneFields.error(file, use, path, "template uses build more than \(Limits.expandedNodes) nodes")
                }
                return argument
            }
            let result: String
            do {
                result = try Self.substituteText(text, arguments)
            } catch {
                throw SceneFields.error(file, node, path, "text longer than \(SceneFileLimits.maximumScalarBytes) bytes once its parameters are put in")
            }
            expandedBytes += result.utf8.count
            if expandedBytes > Limits.expandedBytes {
                throw SceneFields.error(file, use, path, "template uses build more than \(Limits.expandedBytes) bytes of text")
            }
            var copy = node
            copy.value = .scalar(result)
            return copy
        case .sequence(let items):
            var built: [SceneNode] = []
            built.reserveCapacity(items.count)
            for item in items { built.append(try substitute(item, arguments, sizes: sizes, at: use, path: path)) }
            var copy = node
            copy.value = .sequence(built)
            return copy
        case .mapping(let entries):
            var built: [SceneNode.Entry] = []
            built.reserveCapacity(entries.count)
            for entry in entries {
                built.append(.init(key: entry.key, value: try substitute(entry.value, arguments, sizes: sizes, at: use, path: path)))
            }
            var copy = node
            copy.value = .mapping(built)
            return copy
        }
    }

    /// Text too long once its parameters are put in.
    struct TextTooLong: Error {}

    /// `text` with each `{parameter}` replaced by its argument's text, in one pass (`{{` and
    /// `}}` are left as they are, for the text reader; a `{name}` that is no parameter stays,
    /// for a binding). Throws past `SceneFileLimits.maximumScalarBytes`.
    static func substituteText(_ text: String, _ arguments: [String: SceneNode]) throws(TextTooLong) -> String {
        let bytes = Array(text.utf8)
        guard bytes.contains(UInt8(ascii: "{")) else { return text }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            if b == UInt8(ascii: "{"), i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "{") {
                out += [b, b]
                i += 2
            } else if b == UInt8(ascii: "{"),   // a name is at most `nameBytes`: look no further for its brace
                      let close = bytes[(i + 1)..<min(bytes.count, i + 2 + Limits.nameBytes)].firstIndex(of: UInt8(ascii: "}")),
                      let argument = arguments[String(decoding: bytes[(i + 1)..<close], as: UTF8.self)],
                      let replacement = argument.scalar {
                out += replacement.utf8
                i = close + 1
            } else {
                out.append(b)
                i += 1
            }
            if out.count > SceneFileLimits.maximumScalarBytes { throw TextTooLong() }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Fails once compiling has run past its time limit.
    func checkTime(_ node: SceneNode, _ path: String) throws(ConfigError) {
        guard SystemClock.shared.now <= deadline else {
            throw SceneFields.error(file, node, path, "compiling took longer than \(String(cFormat: "%g", timeLimit)) s: the scene is too costly")
        }
    }

    // MARK: Names

    static let nameRule = "a name is letters, digits, '-' and '_', starting with a letter, at most 64 characters and 256 bytes long"

    static func isName(_ name: String) -> Bool {
        guard name.utf8.count <= Limits.nameBytes, let first = name.unicodeScalars.first, first.properties.isAlphabetic,
              name.count <= 64 else { return false }
        return name.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_" }
    }

    /// The layer `name`'s kind, or an error at `node`.
    func layerKind(_ name: String, _ node: SceneNode, _ path: String) throws(ConfigError) -> LayerSpec.Kind {
        guard let kind = layerKinds[name] else {
            let hint = SceneFields.nearest(name, in: Array(layerKinds.keys)).map { " (did you mean '\($0)'?)" } ?? ""
            throw SceneFields.error(file, node, path, "no layer is named '\(Escaped(name))'\(hint)")
        }
        return kind
    }
}
