import LaminaSceneSyntax

/// Turns a scene file's tree into a checked `SceneDocument`: every key known, every value of
/// its property's kind, every name it refers to defined, every count bounded. The first
/// problem is thrown as a `ConfigError` naming `file:line:column`, the element's path and the
/// reason. Nothing here touches the screen; `FileScene` builds what this checked.
struct SceneFileCompiler {
    /// Bounds beyond the reader's, on what a file may ask to build.
    enum Limits {
        static let layers = 2_000
        static let layerDepth = 32
        static let templateDepth = 8
        static let states = 256
        static let gestures = 256
        static let animations = 1_024
        static let keyframes = 1_024
        static let bindings = 256
        static let images = 32
        static let imagePixels = 4096 * 4096
        static let replicatorInstances = 256
    }

    let file: String
    /// The folder the file is in: images resolve here and may not leave it.
    let folder: String
    let values: SceneValueReader
    /// Images already loaded, by resolved path.
    var images: [String: PixelBuffer] = [:]
    var layerCount = 0
    var animationCount = 0
    /// Every named layer's kind, for states, gestures and animations to check against.
    var layerKinds: [String: LayerSpec.Kind] = [:]
    var bindings: [String: BindingValue] = [:]
    var templates: [String: SceneNode] = [:]

    static let topLevelKeys = ["lamina", "background", "bindings", "templates", "layers", "states", "initialState",
                               "transitions", "animations", "animators", "gestures"]

    init(file: String) {
        self.file = file
        let directory = Paths.directory(of: file)
        folder = directory.isEmpty ? "." : directory
        values = SceneValueReader(file: file)
    }

    /// The document for `root`, read from `file`.
    static func compile(_ root: SceneNode, file: String) throws(ConfigError) -> SceneDocument {
        var compiler = SceneFileCompiler(file: file)
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

        var declared: [SceneDocument.Binding] = []
        if let node = top.take("bindings") { declared = try readBindings(node) }
        for binding in declared { bindings[binding.name] = binding.value }

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
            let name = try values.string(node, "initialState", maxLength: 64)
            guard states[name] != nil else { throw top.error(node, "initialState", "no state is named '\(Escaped(name))'") }
            initialState = name
        }
        var transitions: [TransitionSpec] = []
        if let node = top.take("transitions") { transitions = try readTransitions(node, states: states) }
        var animations: [String: NamedAnimation] = [:]
        if let node = top.take("animations") { animations = try readNamedAnimations(node) }
        var animators: [String: AnimatorSpec] = [:]
        if let node = top.take("animators") { animators = try readAnimators(node, states: states) }
        var gestures: [GestureSpec] = []
        if let node = top.take("gestures") {
            gestures = try readGestures(node, states: states, animations: animations, animators: animators)
        }
        try top.rejectUnknown(known: Self.topLevelKeys)
        return SceneDocument(file: file, background: background, bindings: declared, layers: layers, states: states,
                             initialState: initialState, transitions: transitions, animations: animations,
                             animators: animators, gestures: gestures)
    }

    // MARK: Bindings and templates

    private func readBindings(_ node: SceneNode) throws(ConfigError) -> [SceneDocument.Binding] {
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
                throw fields.error(value, name, "a binding is one of {number: 0}, {string: \"text\"}, {colour: \"#RRGGBB\"}")
            }
            let v = typed.take(kind)!
            switch kind {
            case "number": result.append(.init(name: name, value: .number(try values.number(v, path + ".number"))))
            case "string", "text": result.append(.init(name: name, value: .string(try values.string(v, path + "." + kind))))
            case "colour", "color":
                guard let c = try values.color(v, path + "." + kind) else {
                    throw fields.error(v, name, "a colour binding needs a colour, not none")
                }
                result.append(.init(name: name, value: .color(c)))
            default:
                throw fields.error(typed.keyNode(kind)!, name, "a binding's kind is number, string or colour, not '\(Escaped(kind))'")
            }
        }
        return result
    }

    private mutating func readTemplates(_ node: SceneNode) throws(ConfigError) {
        var fields = try SceneFields(node, path: "templates", file: file)
        for name in fields.keys {
            let value = fields.take(name)!
            guard Self.isName(name) else { throw fields.error(fields.keyNode(name)!, name, Self.nameRule) }
            var t = try SceneFields(value, path: fields.path(name), file: file)
            guard let body = t.take("layer") else {
                throw t.error(value, nil, "a template has `layer:` (what it builds) and may have `parameters:` (their defaults)")
            }
            if let parameters = t.take("parameters") {
                let p = try SceneFields(parameters, path: t.path("parameters"), file: file)
                for key in p.keys where !Self.isName(key) { throw p.error(p.keyNode(key)!, key, Self.nameRule) }
            }
            guard body.entries != nil else { throw t.error(body, "layer", "a template's layer is a mapping of keys") }
            try t.rejectUnknown(known: ["layer", "parameters"])
            templates[name] = value
        }
    }

    /// A use of a template, expanded: the template's layer with `$parameter` values and
    /// `{parameter}` text replaced by the arguments, and the use's other keys laid over it.
    func expand(_ use: SceneNode, template name: String, fields: inout SceneFields) throws(ConfigError) -> SceneNode {
        guard let template = templates[name] else {
            throw fields.error(use, "use", "no template is named '\(Escaped(name))' (defined: \(templates.keys.sorted().joined(separator: ", ")))")
        }
        var parameters: [String: SceneNode] = [:]
        if let defaults = template["parameters"]?.entries {
            for entry in defaults { parameters[entry.key.scalar!] = entry.value }
        }
        var arguments = parameters
        if let given = fields.take("with") {
            let with = try SceneFields(given, path: fields.path("with"), file: file)
            for key in with.keys {
                guard parameters[key] != nil else {
                    let known = parameters.isEmpty ? "it has none" : "parameters: \(parameters.keys.sorted().joined(separator: ", "))"
                    throw with.error(with.keyNode(key)!, key, "template '\(name)' has no parameter '\(Escaped(key))' (\(known))")
                }
                arguments[key] = given[key]!
            }
        }
        for (key, value) in arguments where value.scalar == "" {
            throw fields.error(use, "with", "template '\(name)' needs a value for its parameter '\(key)'")
        }
        var body = substitute(template["layer"]!, arguments)
        // The use's own keys (its name, position...) override the template's.
        guard case .mapping(var entries) = body.value else {
            throw SceneFields.error(file, body, fields.path("use"), "a template's layer is a mapping")
        }
        for key in fields.keys where key != "use" && key != "with" {
            let keyNode = fields.keyNode(key)!
            let value = fields.take(key)!
            entries.removeAll { $0.key.scalar == key }
            entries.append(SceneNode.Entry(key: keyNode, value: value))
        }
        body.value = .mapping(entries)
        return body
    }

    private func substitute(_ node: SceneNode, _ arguments: [String: SceneNode]) -> SceneNode {
        switch node.value {
        case .scalar(let text):
            if let name = SceneValueReader.bindingReference(node), let argument = arguments[name] { return argument }
            guard text.contains("{") else { return node }
            var result = text
            for (name, argument) in arguments {
                if let replacement = argument.scalar { result = result.replacing("{\(name)}", with: replacement) }
            }
            return SceneNode(.scalar(result), at: node.position)
        case .sequence(let items):
            return SceneNode(.sequence(items.map { substitute($0, arguments) }), at: node.position)
        case .mapping(let entries):
            return SceneNode(.mapping(entries.map { .init(key: $0.key, value: substitute($0.value, arguments)) }), at: node.position)
        }
    }

    // MARK: Names

    static let nameRule = "a name is letters, digits, '-' and '_', starting with a letter, at most 64 long"

    static func isName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first.properties.isAlphabetic, name.count <= 64 else { return false }
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
