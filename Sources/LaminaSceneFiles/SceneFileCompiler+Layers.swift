import LaminaSceneSyntax
import LaminaVideo
import LaminaWidgets

extension LayerSpec.Kind {
    /// A new layer of this kind.
    func makeLayer() -> Layer {
        switch self {
        case .layer: return Layer()
        case .shape: return ShapeLayer()
        case .text: return TextLayer()
        case .gradient: return GradientLayer()
        case .replicator: return ReplicatorLayer()
        case .transform: return TransformLayer()
        case .scroll, .list: return Layer()        // the viewport; `FileScene` makes it a `ScrollView`'s or a `ListView`'s
        case .button, .toggle, .slider, .progress, .textbox: return Layer()   // `FileScene` makes the control
        case .video: return VideoLayer()                                       // `FileScene` gives it its player
        }
    }

    var layerType: Layer.Type {
        switch self {
        case .layer: return Layer.self
        case .shape: return ShapeLayer.self
        case .text: return TextLayer.self
        case .gradient: return GradientLayer.self
        case .replicator: return ReplicatorLayer.self
        case .transform: return TransformLayer.self
        case .scroll, .list, .button, .toggle, .slider, .progress, .textbox: return Layer.self
        case .video: return VideoLayer.self
        }
    }

    /// The keys of this kind that are set once, not animated.
    var setupKeys: [String] {
        let common = ["contents", "contentsGravity"]
        switch self {
        case .layer, .transform: return common
        case .shape: return common + ["path", "fillRule", "lineCap", "lineJoin", "lineDashPattern"]
        case .text: return common + ["string", "alignment", "wrapped", "truncatesEnd", "truncation", "lines", "lineHeight", "font"]
        case .gradient: return common + ["colors", "locations", "type"]
        case .replicator: return common + ["instanceCount"]
        case .scroll: return common + ["contentSize", "paging", "bounces", "decelerationRate", "indicators"]
        case .list: return ["items", "row", "rowHeight"]
        case .button: return ["title", "style", "enabled", "font"]
        case .toggle: return ["on", "enabled", "binding"]
        case .slider: return ["range", "step", "enabled", "binding"]
        case .progress: return ["style", "indeterminate", "binding"]
        case .textbox: return ["placeholder", "maxLength", "binding", "font"]
        case .video: return ["source", "loop", "playing", "rate", "overlayPlane", "muted", "volume", "contentsGravity"]
        }
    }
}

extension SceneFileCompiler {
    static let structureKeys = ["kind", "name", "use", "with", "sublayers", "animations", "layout", "layoutSize"]

    mutating func layer(_ node: SceneNode, path: String, namePrefix: String, depth: Int,
                        templateDepth: Int) throws(ConfigError) -> LayerSpec {
        guard depth < Limits.layerDepth else {
            throw SceneFields.error(file, node, path, "layers nested deeper than \(Limits.layerDepth)")
        }
        try checkTime(node, path)
        if node["use"] != nil {
            var fields = try SceneFields(node, path: path, file: file)
            let use = fields.take("use")!
            guard templateDepth < Limits.templateDepth else {
                throw fields.error(use, "use", "templates used inside templates more than \(Limits.templateDepth) deep (a template using itself?)")
            }
            let name = try values.string(use, fields.path("use"), maxLength: Limits.nameBytes)
            let expanded = try expand(use, template: name, fields: &fields)
            let spec = try layer(expanded.layer, path: path, namePrefix: namePrefix, depth: depth, templateDepth: templateDepth + 1)
            if !expanded.behaviour.isEmpty {
                guard let owner = spec.name else {
                    throw SceneFields.error(file, use, path, "template '\(Escaped(name))' has states or gestures of each use's own: name the use (`name: row1`)")
                }
                pendingUses.append(PendingUse(owner: owner, behaviour: expanded.behaviour, path: spec.elementPath))
            }
            return spec
        }
        // Errors inside a named layer name it: `layers[1](stack).sublayers[0]`.
        let elementPath = node["name"]?.scalar.map { "\(path)(\(namePrefix + $0))" } ?? path
        var fields = try SceneFields(node, path: elementPath, file: file)
        layerCount += 1
        guard layerCount <= Limits.layers else {
            throw fields.error(node, nil, "more than \(Limits.layers) layers")
        }
        let kind = try fields.take("kind").map { k throws(ConfigError) in try values.choice(k, fields.path("kind"), LayerSpec.Kind.allCases) } ?? .layer
        var name: String?
        if let n = fields.take("name"), registersNames {
            let written = try values.string(n, fields.path("name"), maxLength: Limits.nameBytes)
            guard Self.isName(written) else { throw fields.error(n, "name", Self.nameRule) }
            let full = namePrefix + written
            guard full != "root" else { throw fields.error(n, "name", "'root' is the screen's own layer (gestures may name it)") }
            guard layerKinds[full] == nil else { throw fields.error(n, "name", "two layers are named '\(full)'") }
            layerKinds[full] = kind
            name = full
        }

        let prototype = kind.makeLayer()
        let animatable = kind.layerType.animatableKeyPaths
        var spec = LayerSpec(kind: kind, name: name, elementPath: elementPath, properties: [], setup: [], text: nil,
                             sublayers: [], animations: [])
        for key in fields.keys where !Self.structureKeys.contains(key) {
            let value = fields.take(key)!
            let at = fields.path(key)
            if animatable.contains(key) {
                spec.properties.append((key, try valueSpec(value, at, like: prototype.value(forKeyPath: key)!, keyPath: key)))
            } else if kind.setupKeys.contains(key) {
                if key == "string" {
                    spec.text = try textTemplate(value, at)
                } else {
                    spec.setup.append(try setup(key, value, at, kind: kind))
                }
            } else {
                let known = Self.structureKeys + kind.setupKeys + animatable
                let hint = SceneFields.nearest(key, in: known).map { " (did you mean '\($0)'?)" } ?? ""
                let elsewhere = LayerSpec.Kind.allCases.filter { $0 != kind && ($0.setupKeys + $0.layerType.animatableKeyPaths).contains(key) }
                let kindHint = elsewhere.isEmpty ? "" : " (it belongs to kind \(elsewhere.map(\.rawValue).joined(separator: ", ")))"
                throw fields.error(fields.keyNode(key)!, key, "a \(kind.rawValue) layer has no property '\(Escaped(key))'\(hint)\(kindHint)")
            }
        }
        if let sublayers = fields.take("sublayers") {
            guard let items = sublayers.items else {
                throw fields.error(sublayers, "sublayers", "expected a list of layers, found \(sublayers.kindName)")
            }
            let prefix = name.map { $0 + "." } ?? namePrefix
            for (i, item) in items.enumerated() {
                spec.sublayers.append(try layer(item, path: "\(fields.path("sublayers"))[\(i)]", namePrefix: templateDepth > 0 ? prefix : namePrefix,
                                                depth: depth + 1, templateDepth: templateDepth))
            }
        }
        if kind == .list { spec.listRow = try listRow(of: spec, node, elementPath, depth: depth) }
        if kind == .video {
            guard spec.setup.contains(where: { if case .videoSource = $0 { true } else { false } }) else {
                throw fields.error(node, nil, "a video layer names its clip: `source: loop.webm`, a file in the scene file's folder, or an http, https, rtsp or rtsps URL")
            }
            videoCount += 1
            guard videoCount <= Limits.videos else { throw fields.error(node, nil, "more than \(Limits.videos) video layers") }
        }
        if [.text, .button, .textbox].contains(kind), let standard = defaultFontWithFallbacks,
           !spec.setup.contains(where: { if case .font = $0 { true } else { false } }) {
            spec.setup.append(.font(standard))
        }
        if kind.isControl || kind == .scroll || kind == .list, let n = fields["bounds"] {
            // A control draws its parts at the size it is given: kept within what a screen shows.
            guard let r = spec.writtenBounds,
                  r.width <= Double(Limits.controlSide), r.height <= Double(Limits.controlSide) else {
                throw fields.error(n, "bounds", "a \(kind.rawValue) layer's bounds are numbers, its width and height at most \(Limits.controlSide)")
            }
        }
        if let n = fields.take("layout") { spec.layout = try layout(n, fields.path("layout")) }
        if let n = fields.take("layoutSize") { spec.layoutSize = try layoutSize(n, fields.path("layoutSize")) }
        if spec.layout == nil, let (i, _) = spec.sublayers.enumerated().first(where: { $0.element.layoutSize != nil }),
           let items = fields["sublayers"]?.items, items.indices.contains(i) {
            throw SceneFields.error(file, items[i], "\(fields.path("sublayers"))[\(i)].layoutSize",
                                    "layoutSize is for the sublayers of a layer with a `layout:`")
        }
        if let animations = fields.take("animations") {
            let list = try SceneFields(animations, path: fields.path("animations"), file: file)
            for key in list.keys {
                spec.animations.append((key, try animation(list[key]!, list.path(key), kind: kind)))
            }
        }
        try fields.rejectUnknown(known: Self.structureKeys + kind.setupKeys + animatable)
        if let locations = fields["locations"] {
            let colorCount = spec.setup.lazy.compactMap { if case .gradientColors(let c) = $0 { c.count } else { nil } }.first
            let locationCount = spec.setup.lazy.compactMap { if case .gradientLocations(let l) = $0 { l.count } else { nil } }.first
            guard colorCount == locationCount else {
                throw fields.error(locations, "locations", "one location per colour: \(locationCount ?? 0) locations, \(colorCount ?? 0) colours")
            }
        }
        return spec
    }

    /// An expression (`= …`) read against the bindings, giving `kind`; errors name the
    /// character in the expression.
    func expression(_ source: String, _ node: SceneNode, _ path: String, giving kinds: [SceneExpression.Kind]) throws(ConfigError) -> SceneExpression {
        let expression: SceneExpression
        do {
            expression = try SceneExpression(source, bindings: bindings)
        } catch {
            throw SceneFields.error(file, node, path, "expression, at character \(error.offset): \(error.reason)")
        }
        guard kinds.contains(expression.kind) else {
            let wanted = kinds.map { "a \($0.rawValue)" }.joined(separator: " or ")
            throw SceneFields.error(file, node, path, "the expression gives a \(expression.kind.rawValue); this needs \(wanted)")
        }
        return expression
    }

    /// A property value: `$binding` (of the property's kind), `= expression` or a literal.
    func valueSpec(_ node: SceneNode, _ path: String, like sample: AnimatableValue, keyPath: String? = nil) throws(ConfigError) -> ValueSpec {
        if let source = SceneExpression.source(of: node) {
            switch sample {
            case .scalar: return .expression(try expression(source, node, path, giving: [.number]))
            case .color: return .expression(try expression(source, node, path, giving: [.colour]))
            case .bool: return .expression(try expression(source, node, path, giving: [.boolean]))
            default:
                throw SceneFields.error(file, node, path, "an expression gives a number, a colour, or true or false; for \(Self.kindName(sample)) write a list with expressions among its numbers")
            }
        }
        if let name = SceneValueReader.bindingReference(node) {
            guard let binding = bindings[name] else {
                throw SceneFields.error(file, node, path, "no binding is named '\(Escaped(name))'")
            }
            switch (binding, sample) {
            case (.number, .scalar), (.color, .color): return .binding(name)
            default:
                throw SceneFields.error(file, node, path, "binding '\(name)' is a \(binding.kindName); this property needs \(Self.kindName(sample))")
            }
        }
        if let items = node.items, items.contains(where: { SceneValueReader.bindingReference($0) != nil || SceneExpression.source(of: $0) != nil }) {
            return try components(items, node, path, like: sample)
        }
        return .literal(try values.value(node, path, like: sample, keyPath: keyPath))
    }

    /// A point, size or rectangle list with number bindings among its numbers.
    private func components(_ items: [SceneNode], _ node: SceneNode, _ path: String, like sample: AnimatableValue) throws(ConfigError) -> ValueSpec {
        let count: Int
        switch sample {
        case .point, .size: count = 2
        case .rect: count = 4
        default: throw SceneFields.error(file, node, path, "bindings and expressions stand inside lists of points, sizes and rectangles; this property needs \(Self.kindName(sample))")
        }
        guard items.count == count else {
            throw SceneFields.error(file, node, path, "expected \(Self.kindName(sample)) of \(count) numbers, found \(items.count)")
        }
        var parts: [ComponentSpec] = []
        for (i, item) in items.enumerated() {
            let at = "\(path)[\(i)]"
            if let name = SceneValueReader.bindingReference(item) {
                guard case .number? = bindings[name] else {
                    throw SceneFields.error(file, item, at, bindings[name] == nil ? "no binding is named '\(Escaped(name))'"
                                                                                : "binding '\(Escaped(name))' is not a number")
                }
                parts.append(.binding(name))
            } else if let source = SceneExpression.source(of: item) {
                parts.append(.expression(try expression(source, item, at, giving: [.number])))
            } else {
                let x = try values.number(item, at)
                if case .rect = sample, i >= 2, x < 0 { throw SceneFields.error(file, item, at, "a rectangle's width and height are not negative") }
                parts.append(.number(x))
            }
        }
        return .components(sample: sample, parts: parts)
    }

    static func kindName(_ sample: AnimatableValue) -> String {
        switch sample {
        case .scalar: return "a number"
        case .bool: return "true or false"
        case .color: return "a colour"
        case .transform: return "a transform"
        case .point: return "a point"
        case .size: return "a size"
        case .rect: return "a rectangle"
        }
    }

    /// Text with `{binding}` and `{= expression}` parts (`{{` and `}}` write braces), with
    /// its translation in each of the file's catalogs parsed alike.
    func textTemplate(_ node: SceneNode, _ path: String) throws(ConfigError) -> TextTemplate {
        if let name = SceneValueReader.bindingReference(node) {
            guard bindings[name] != nil else { throw SceneFields.error(file, node, path, "no binding is named '\(Escaped(name))'") }
            return TextTemplate(parts: [.binding(name)])
        }
        let text = try values.string(node, path)
        var template = TextTemplate(parts: try templateParts(text, node, path, in: ""), source: text)
        for (language, catalogPath, catalog) in catalogs {
            guard let translated = catalog.translation(of: text) else { continue }
            // A translation may be longer than its text, within bounds (the text cost model).
            let longest = min(max(4 * text.utf8.count, 256), SceneFileLimits.maximumScalarBytes)
            guard translated.utf8.count <= longest else {
                throw SceneFields.error(file, node, path, "its \(language) translation (\(catalogPath)) has \(translated.utf8.count) bytes; "
                                        + "a translation of this text may have \(longest)")
            }
            template.translations[language] = try templateParts(translated, node, path,
                                                                in: "its \(language) translation (\(catalogPath)): ")
        }
        return template
    }

    /// The parts of `text`; errors name `context` before the reason (a translation's).
    private func templateParts(_ text: String, _ node: SceneNode, _ path: String, in context: String) throws(ConfigError) -> [TextTemplate.Part] {
        var parts: [TextTemplate.Part] = []
        var literal = ""
        var rest = Substring(text)
        while let c = rest.first {
            rest = rest.dropFirst()
            if c == "{" && rest.first == "{" || c == "}" && rest.first == "}" {
                literal.append(c)
                rest = rest.dropFirst()
            } else if c == "}" {
                throw SceneFields.error(file, node, path, context + "'}' closes no binding (write }} for a brace)")
            } else if c == "{" {
                guard let close = rest.firstIndex(of: "}") else {
                    throw SceneFields.error(file, node, path, context + "'{' opens a binding that is not closed (write {{ for a brace)")
                }
                let name = String(rest[..<close])
                if name.hasPrefix("=") {
                    if !literal.isEmpty { parts.append(.literal(literal)) }
                    literal = ""
                    parts.append(.expression(try expression(String(name.dropFirst()), node, path, giving: [.text, .number, .colour, .boolean])))
                    rest = rest[rest.index(after: close)...]
                    continue
                }
                guard bindings[name] != nil else {
                    throw SceneFields.error(file, node, path, context + "no binding is named '\(Escaped(name))' (write {{ for a brace)")
                }
                if !literal.isEmpty { parts.append(.literal(literal)) }
                literal = ""
                parts.append(.binding(name))
                rest = rest[rest.index(after: close)...]
            } else {
                literal.append(c)
            }
        }
        if !literal.isEmpty { parts.append(.literal(literal)) }
        return parts
    }

    private mutating func setup(_ key: String, _ node: SceneNode, _ path: String, kind: LayerSpec.Kind) throws(ConfigError) -> LayerSetup {
        switch key {
        case "path":
            let data = try values.string(node, path, maxLength: SceneFileLimits.maximumScalarBytes)
            do {
                return .path(try Path(svgPathData: data, coordinateLimit: SceneValueReader.numberLimit))
            } catch {
                throw SceneFields.error(file, node, path, "SVG path data: \(error)")
            }
        case "fillRule":
            switch try values.string(node, path) {
            case "nonZero": return .fillRule(.nonZero)
            case "evenOdd": return .fillRule(.evenOdd)
            case let other: throw SceneFields.error(file, node, path, "'\(Escaped(other))' is not nonZero or evenOdd")
            }
        case "lineCap": return .lineCap(try values.choice(node, path, [LineCap.butt, .round, .square]))
        case "lineJoin": return .lineJoin(try values.choice(node, path, [LineJoin.miter, .round, .bevel]))
        case "lineDashPattern":
            let dashes = try values.numbers(node, path, count: 0...64, what: "a list of dash lengths")
            guard dashes.allSatisfy({ $0 >= 0 }) else { throw SceneFields.error(file, node, path, "dash lengths are not negative") }
            return .lineDashPattern(dashes)
        case "alignment": return .alignment(try values.choice(node, path, [TextLayer.Alignment.natural, .left, .center, .right]))
        case "wrapped": return .wrapped(try values.bool(node, path))
        case "truncatesEnd": return .truncation(try values.bool(node, path) ? .end : .none)
        case "truncation": return .truncation(try values.choice(node, path, TextTruncation.allCases))
        case "lines": return .numberOfLines(try values.integer(node, path, in: 0...Limits.textLines))
        case "lineHeight": return .lineHeightMultiple(try values.number(node, path, in: TextLayer.lineHeightMultiples))
        case "font": return .font(try font(node, path))
        case "colors":
            guard let items = node.items, (1...64).contains(items.count) else {
                throw SceneFields.error(file, node, path, "expected a list of 1…64 colours")
            }
            var colors: [Color] = []
            for (i, item) in items.enumerated() {
                guard let c = try values.color(item, "\(path)[\(i)]") else {
                    throw SceneFields.error(file, item, "\(path)[\(i)]", "a gradient's colour cannot be none")
                }
                colors.append(c)
            }
            return .gradientColors(colors)
        case "locations":
            let locations = try values.numbers(node, path, count: 1...64, what: "a list of locations in 0…1")
            guard locations.allSatisfy({ (0...1).contains($0) }), zip(locations, locations.dropFirst()).allSatisfy({ $0 <= $1 }) else {
                throw SceneFields.error(file, node, path, "locations rise within 0…1")
            }
            return .gradientLocations(locations)
        case "type": return .gradientType(try values.choice(node, path, [GradientLayer.Kind.axial, .radial]))
        case "instanceCount": return .instanceCount(try values.integer(node, path, in: 0...Limits.replicatorInstances))
        case "contentsGravity": return .contentsGravity(try values.choice(node, path, ContentsGravity.allCases))
        case "contents": return .contents(try image(node, path))
        case "contentSize":
            guard case .size(let size) = try values.value(node, path, like: .size(.zero)) else { preconditionFailure("a size reads as a size") }
            guard size.width >= 0, size.height >= 0 else { throw SceneFields.error(file, node, path, "a content size is not negative") }
            return .contentSize(size)
        case "source": return .videoSource(try videoSource(node, path))
        case "loop": return .loops(try values.bool(node, path))
        case "playing": return .autoplay(try values.bool(node, path))
        case "overlayPlane": return .overlayPlane(try values.bool(node, path))
        case "muted": return .muted(try values.bool(node, path))
        case "volume": return .volume(try values.number(node, path, in: 0...1))
        case "rate": return .playbackRate(try values.number(node, path, in: 0...VideoPlayer.maximumRate))
        case "title": return .title(try values.string(node, path, maxLength: 256))
        case "placeholder": return .placeholder(try values.string(node, path, maxLength: 256))
        case "maxLength": return .maximumLength(try values.integer(node, path, in: 1...BindingValue.ListLimits.textBytes * 16))
        case "binding" where kind == .textbox:
            let name = try values.string(node, path, maxLength: Limits.nameBytes)
            guard case .string? = bindings[name] else {
                throw SceneFields.error(file, node, path, bindings[name] == nil ? "no binding is named '\(Escaped(name))'"
                                                                                : "binding '\(Escaped(name))' is not a string: a text box's binding is its text")
            }
            return .controlBinding(name)
        case "style" where kind == .button: return .buttonStyle(try values.choice(node, path, [Button.Kind.primary, .secondary, .plain]))
        case "style": return .progressStyle(try values.choice(node, path, [ProgressView.Style.bar, .ring]))
        case "enabled": return .enabled(try values.bool(node, path))
        case "on": return .on(try values.bool(node, path))
        case "indeterminate": return .indeterminate(try values.bool(node, path))
        case "range":
            let r = try values.numbers(node, path, count: 2...2, what: "[minimum, maximum]")
            guard r[0] < r[1] else { throw SceneFields.error(file, node, path, "a range rises: [minimum, maximum]") }
            return .range(r[0]...r[1])
        case "step": return .step(try values.number(node, path, in: 1e-9...SceneValueReader.numberLimit))
        case "binding":
            let name = try values.string(node, path, maxLength: Limits.nameBytes)
            guard case .number? = bindings[name] else {
                throw SceneFields.error(file, node, path, bindings[name] == nil ? "no binding is named '\(Escaped(name))'"
                                                                                : "binding '\(Escaped(name))' is not a number")
            }
            return .controlBinding(name)
        case "items":
            guard let name = SceneValueReader.bindingReference(node) else {
                throw SceneFields.error(file, node, path, "a list's items are a list binding: `items: $orders`")
            }
            guard case .list? = bindings[name] else {
                throw SceneFields.error(file, node, path, bindings[name] == nil ? "no binding is named '\(Escaped(name))'"
                                                                                : "binding '\(Escaped(name))' is not a list")
            }
            return .listItems(name)
        case "row": return .listRowTemplate(try values.string(node, path, maxLength: Limits.nameBytes))
        case "rowHeight": return .rowHeight(try values.number(node, path, in: 8...Double(Limits.controlSide)))
        case "paging": return .paging(try values.bool(node, path))
        case "bounces": return .bounces(try values.bool(node, path))
        case "indicators": return .showsIndicators(try values.bool(node, path))
        case "decelerationRate":
            switch try values.string(node, path) {
            case "normal": return .decelerationRate(Decay.normalRate)
            case "fast": return .decelerationRate(Decay.fastRate)
            case let other: throw SceneFields.error(file, node, path, "'\(Escaped(other))' is not normal or fast")
            }
        default:
            preconditionFailure("setup key \(key) without a reader")
        }
    }
}
