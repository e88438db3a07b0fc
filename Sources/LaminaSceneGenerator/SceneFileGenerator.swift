import Lamina
import LaminaSceneSyntax

/// Writes scene files from a stream of choices — a fuzzer's bytes or a seeded generator's —
/// following the format's own property tables (`SceneFileFormat`): every layer kind, each
/// key with a value of its kind (mostly valid, sometimes at or past a limit, sometimes
/// wrong), templates with parameters, bindings, replicators, dash patterns, path data,
/// images (a fixture folder's small, huge, FIFO and escaping ones), states, transitions,
/// animations, animators and gestures. The structure-aware fuzzer and the property tests
/// compile what it writes and draw what compiles.
public struct SceneFileGenerator {
    /// Where choices come from; past its end every choice is the first option.
    public struct Choices {
        private let bytes: [UInt8]
        private var index = 0

        /// Choices read from `bytes`, two bytes a choice.
        public init(_ bytes: [UInt8]) { self.bytes = bytes }

        /// Choices from a seeded generator (SplitMix64): `count` bytes of them.
        public init(seed: UInt64, count: Int = 4096) {
            var state = seed
            var bytes: [UInt8] = []
            bytes.reserveCapacity(count)
            while bytes.count < count {
                state &+= 0x9E37_79B9_7F4A_7C15
                var z = state
                z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
                z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
                z ^= z >> 31
                for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: z >> UInt64(shift))) }
            }
            self.bytes = bytes
        }

        /// A number in `0..<count`.
        public mutating func next(_ count: Int) -> Int {
            guard count > 1, index + 1 < bytes.count else { return 0 }
            let value = Int(bytes[index]) << 8 | Int(bytes[index + 1])
            index += 2
            return value % count
        }

        /// True with probability about `percent` %.
        public mutating func chance(_ percent: Int) -> Bool { next(100) < percent }

        /// One of `options`.
        public mutating func pick<T>(_ options: [T]) -> T { options[next(options.count)] }
    }

    /// The files the generator names as images, made by `ImageFixtures`.
    /// Faces a file may not name: no such family, no such weight, a file outside the folder or
    /// missing, a file that is not a font, nothing.
    public static let badFontNames = ["No Such Family", "DejaVu Sans:heavy", "../outside.ttf", "missing.ttf", "small.png.ttf", ""]
    public static let imageNames = ["small.png", "huge-header.png", "pipe.png", "escape.png", "missing.png", "../outside.png"]

    private var choices: Choices
    /// Whether this file may hold mistakes; otherwise every value is of its kind and only the
    /// cost model may refuse it.
    private var hostile = false
    private var names: [String] = []
    private var templates: [(name: String, parameters: [String])] = []
    private var counter = 0
    private let at = SourcePosition(line: 1, column: 1)

    /// A generator reading `choices`.
    public init(_ choices: Choices) { self.choices = choices }

    /// A whole scene file's tree.
    public mutating func scene() -> SceneNode {
        hostile = choices.chance(40)
        var entries: [(String, SceneNode)] = [("lamina", scalar("1"))]
        if choices.chance(30) { entries.append(("background", colour())) }
        if choices.chance(10) {
            entries.append(("fallbackFonts", bad(20) ? scalar("DejaVu Sans")
                : list((0..<(1 + choices.next(2))).map { _ in value(of: .fontName, depth: 0) })))
        }
        if !hostile || choices.chance(60) {
            entries.append(("bindings", map([("b0", map([("number", number())])), ("b1", map([("string", text(depth: 0))])),
                                            ("b2", map([("colour", scalar(choices.pick(["#FFF", "#3B82F6"])))])),
                                            ("b3", map([("list", list((0..<choices.pick([0, 1, 3, 200])).map { i in
                                                map([("p0", scalar(bad(5) ? "x" : "\(i)")), ("p1", scalar(choices.pick(["2", "#F80", "{b0}"])))])
                                            }))]))])))
        }
        if choices.chance(50) { entries.append(("templates", makeTemplates())) }
        var layers: [SceneNode] = []
        for _ in 0..<(1 + choices.next(5)) { layers.append(layer(depth: 0)) }
        entries.append(("layers", list(layers)))
        if !names.isEmpty && choices.chance(60) {
            entries.append(("states", map([("rest", SceneNode.null(at: at)), ("open", stateValues())])))
            if choices.chance(50) { entries.append(("initialState", scalar(bad(20) ? "nope" : choices.pick(["rest", "open"])))) }
            if choices.chance(50) {
                entries.append(("transitions", list([map([("to", scalar("open")), (choices.pick(["implicit", "basic"]), map([("duration", duration())]))]),
                                                     map([("to", scalar("*")), ("spring", map([("dampingRatio", scalar(choices.pick(["0.5", "1", "0.1"]))), ("duration", duration())]))])])))
            }
            if choices.chance(40) { entries.append(("animators", map([("grow", map([("duration", duration()), ("state", scalar("open"))]))]))) }
            if choices.chance(50) {
                let target = choices.pick(names + ["root"])
                var gestures = [map([("tap", scalar(target)), ("toggle", list([scalar("open"), scalar("rest")]))])]
                if choices.chance(50) { gestures.append(map([("pan", scalar(target)), ("drag", scalar("true"))])) }
                entries.append(("gestures", list(gestures)))
            }
        }
        if bad(10) { entries.append((choices.pick(["unknown", "Layers", ""]), scalar("1"))) }
        return map(entries)
    }

    /// True, with probability about `percent` %, only in a hostile file: a mistake to make.
    private mutating func bad(_ percent: Int) -> Bool { hostile && choices.chance(percent) }

    // MARK: Layers

    private mutating func layer(depth: Int) -> SceneNode {
        if !templates.isEmpty && choices.chance(25) { return use() }
        // A video layer needs a clip on disk, which the generated folder has not: only hostile
        // files write one (and their sources are refused).
        let kind = choices.pick(SceneFileFormat.layerKinds.filter { $0 != "video" || hostile })
        var entries: [(String, SceneNode)] = [("kind", scalar(kind))]
        if choices.chance(50) {
            counter += 1
            let name = bad(5) ? choices.pick(names + ["root", "a b", String(repeating: "n", count: 300)]) : "l\(counter)"
            names.append(name)
            entries.append(("name", scalar(name)))
        }
        let keys = (SceneFileFormat.animatableKeys(of: kind) ?? []) + (SceneFileFormat.setupKeys(of: kind) ?? [])
        var used: Set<String> = ["kind", "name"]
        for _ in 0..<choices.next(7) {
            let key = bad(4) ? choices.pick(["bogus", "backgroundColour", "sublayer"]) : choices.pick(keys)
            guard used.insert(key).inserted, hostile || key != "locations" else { continue }
            entries.append((key, value(of: SceneFileFormat.valueKind(of: key, in: kind) ?? .number, depth: depth)))
        }
        if kind == "replicator" && used.insert("instanceCount").inserted {
            entries.append(("instanceCount", scalar(bad(20) ? "257" : choices.pick(["0", "1", "2", "16", "100", "256"]))))
        }
        if depth < 5 && choices.chance(depth == 0 ? 60 : 35) {
            var sublayers: [SceneNode] = []
            for _ in 0..<(1 + choices.next(3)) { sublayers.append(layer(depth: depth + 1)) }
            entries.append(("sublayers", list(sublayers)))
        }
        if choices.chance(20) { entries.append(("animations", map([("a\(counter)", animation(kind: kind))]))) }
        return map(entries)
    }

    private mutating func use() -> SceneNode {
        let template = choices.pick(templates)
        var with: [(String, SceneNode)] = []
        for parameter in template.parameters where !bad(30) {
            with.append((parameter, hostile && choices.chance(50) ? text(depth: 1) : number()))
        }
        if bad(5) { with.append(("notAParameter", scalar("1"))) }
        var entries: [(String, SceneNode)] = [("use", scalar(bad(5) ? "nope" : template.name))]
        if !hostile {
            counter += 1
            entries.append(("name", scalar("u\(counter)")))
        }
        if !with.isEmpty { entries.append(("with", map(with))) }
        if choices.chance(40) { entries.append(("position", point())) }
        return map(entries)
    }

    private mutating func makeTemplates() -> SceneNode {
        var entries: [(String, SceneNode)] = []
        for t in 0..<(1 + choices.next(3)) {
            let parameters = (0..<choices.next(4)).map { "p\($0)" }
            let named = names
            var body = layer(depth: 3)
            names = named                                       // names inside a template are the uses'
            let isText = body["kind"]?.scalar == "text"
            // Parameters stand in for values and text.
            if case .mapping(var fields) = body.value {
                if !hostile { fields.removeAll { $0.key.scalar == "name" } }   // named by each use instead
                for parameter in parameters {
                    if choices.chance(50) {
                        fields.append(.init(key: scalar(choices.pick(["opacity", "cornerRadius", "zPosition"])), value: scalar("$" + parameter)))
                    }
                }
                if let p = parameters.first, isText || hostile {
                    let repeats = choices.pick([1, 2, 50, 3000])
                    fields.removeAll { $0.key.scalar == "kind" || $0.key.scalar == "string" }
                    fields.append(.init(key: scalar("kind"), value: scalar("text")))
                    fields.append(.init(key: scalar("string"), value: scalar(String(repeating: "{\(p)}", count: repeats))))
                }
                body.value = .mapping(fields.reduce(into: [SceneNode.Entry]()) { kept, field in
                    if !kept.contains(where: { $0.key.scalar == field.key.scalar }) { kept.append(field) }
                })
            }
            let defaults = parameters.map { ($0, choices.chance(50) ? SceneNode.null(at: at) : scalar(choices.pick(["1", "2"]))) }
            var template: [(String, SceneNode)] = [("layer", body)]
            if !defaults.isEmpty { template.append(("parameters", map(defaults))) }
            entries.append(("t\(t)", map(template)))
            templates.append(("t\(t)", parameters))
        }
        return map(entries)
    }

    private mutating func stateValues() -> SceneNode {
        var entries: [(String, SceneNode)] = []
        for name in Set(names.prefix(3)).sorted() where name.count < 64 {
            let key = choices.pick(["opacity", "position.x", "cornerRadius", "transform.scale"])
            entries.append((name, map([(key, number())])))
        }
        return entries.isEmpty ? SceneNode.null(at: at) : map(entries)
    }

    private mutating func animation(kind: String) -> SceneNode {
        var entries: [(String, SceneNode)] = [("keyPath", scalar(choices.pick(["opacity", "cornerRadius", "transform.rotation.z", "position.x"])))]
        if choices.chance(50) {
            entries += [("from", number()), ("to", number())]
        } else {
            let count = bad(10) ? 1025 : choices.pick([2, 3, 50])
            entries.append(("values", list((0..<count).map { _ in number() })))
            if choices.chance(50) {
                let times = (0..<count).map { i in bad(10) ? "2" : i == count - 1 ? "1" : "\(Double(i) / Double(count - 1))" }
                entries.append(("keyTimes", list(times.map(scalar))))
            }
        }
        entries.append(("duration", duration()))
        if choices.chance(50) { entries.append(("repeat", scalar(bad(20) ? "1e9x" : choices.pick(["forever", "2"])))) }
        return map(entries)
    }

    // MARK: Values

    private mutating func value(of kind: SceneFileFormat.ValueKind, depth: Int) -> SceneNode {
        switch kind {
        case .number: return choices.chance(10) ? scalar("$b0") : choices.chance(8) ? expression(giving: .number) : number()
        case .boolean:
            if choices.chance(8) { return expression(giving: .boolean) }
            return scalar(bad(10) ? "maybe" : choices.pick(["true", "false", "yes"]))
        case .colour: return choices.chance(10) ? scalar("$b2") : choices.chance(8) ? expression(giving: .colour) : colour()
        case .point, .size: return list([number(), choices.chance(10) ? expression(giving: .number) : number()])
        case .rectangle: return list([number(), number(), size(), size()])
        case .transform: return transform()
        case .choice(let words): return scalar(bad(10) ? "nonsense" : choices.pick(words))
        case .pathData: return scalar(pathData())
        case .text: return text(depth: depth)
        case .numbers:
            let pattern = bad(20) ? ["-1"] : choices.pick([["0.01", "0.01"], ["6", "3"], ["1e-300", "1"], ["0", "0"], ["5"], ["0", "0.5", "1"]])
            return list(pattern.map { SceneNode(.scalar($0), at: at) })
        case .colours: return list((0..<(bad(10) ? 65 : choices.pick([1, 2, 3]))).map { _ in colour() })
        case .wholeNumber(let range): return scalar("\(bad(20) ? range.upperBound + 1 : choices.pick([range.lowerBound, range.upperBound, 3]))")
        case .image: return scalar(hostile ? choices.pick(Self.imageNames) : "small.png")
        case .video: return scalar(choices.pick(["missing.webm", "../outside.webm", "ftp://host/clip.mp4", "/etc/passwd"]))
        case .bindingName: return scalar(bad(20) ? choices.pick(["b2", "nobody"]) : "b0")
        case .range: return bad(20) ? list([number(), number()]) : list([scalar("0"), scalar(choices.pick(["1", "100"]))])
        case .listBinding: return scalar(bad(20) ? choices.pick(["$b0", "$nobody", "b3"]) : "$b3")
        case .templateName: return scalar(bad(10) || templates.isEmpty ? "nope" : choices.pick(templates.map(\.0)))
        case .fontName: return scalar(bad(10) ? choices.pick(Self.badFontNames) : choices.pick(["DejaVu Sans", "DejaVu Sans:bold"]))
        }
    }

    private func scalar(_ text: String) -> SceneNode { SceneNode(.scalar(text), at: at) }

    private enum ExpressionKind { case number, boolean, colour }

    /// An expression (`= …`) over the file's bindings (b0 a number, b1 text, b2 a colour),
    /// of the kind asked for, or — hostile — of another kind, unbalanced or too deep.
    private mutating func expression(giving kind: ExpressionKind) -> SceneNode {
        if bad(15) {
            return scalar(choices.pick(["= 1 +", "= $nobody", "= 'a' * 2", "= " + String(repeating: "(", count: 40) + "1",
                                        "= $b0 ? 1 : 2", "= #12", "= mx(1)", "= 1e300", "= $b2", "= $b1 < 'a'"]))
        }
        let number = choices.pick(["$b0", "$b0 / 0", "$b0 * $b0 * $b0 * 1e7", "-$b0 % 3", "min($b0, 5, -1e7)",
                                   "round($b0, 99)", "clamp($b0, 10, 0)", "mix(0, $b0, 2)", "(1 + 2) * $b0 - 1e7"])
        switch kind {
        case .number: return scalar("= " + number)
        case .boolean: return scalar("= " + choices.pick(["\(number) > 1", "$b1 == 'x' || !($b0 <= 0)", "$b2 != #FFF && true"]))
        case .colour: return scalar("= " + choices.pick(["$b0 > 1 ? $b2 : #3B82F6", "mix($b2, #00000080, \(number))", "#f80"]))
        }
    }

    private mutating func number() -> SceneNode {
        scalar(bad(8)
            ? choices.pick(["10000001", "1e300", "0x10", "0x1p3", "inf", "nan", "１", "", "abc", "1e-320"])
            : choices.pick(["0", "1", "-1", "0.5", "2", "10", "100", "255", "1000", "0.01", "90deg", "-0", "360deg", "9999999", "10000000", "1e3"]))
    }

    /// A duration: not negative.
    private mutating func duration() -> SceneNode {
        scalar(bad(10) ? choices.pick(["-1", "0"]) : choices.pick(["0.25", "1", "2.5"]))
    }

    private mutating func colour() -> SceneNode {
        scalar(bad(8) ? choices.pick(["#ＦＦＦ", "#12", "red", ""]) : choices.pick(["#FFF", "#3B82F6", "#00000080", "none", "#f80"]))
    }

    private mutating func point() -> SceneNode { list([number(), number()]) }

    /// A width or height: not negative.
    private mutating func size() -> SceneNode { scalar(bad(10) ? "-5" : choices.pick(["0", "1", "40", "400", "5000"])) }

    private mutating func transform() -> SceneNode {
        if choices.chance(10) { return scalar("identity") }
        var operations: [SceneNode] = []
        for _ in 0..<(1 + choices.next(4)) {
            let op = choices.pick(["rotateX", "rotateY", "rotateZ", "scale", "translate", "perspective"])
            let value = op == "translate" ? point()
                : op == "scale" && choices.chance(30) ? list([number(), number()])
                : op == "perspective" && !hostile ? scalar(choices.pick(["500", "1000"])) : number()
            operations.append(map([(op, value)]))
        }
        return list(operations)
    }

    private mutating func text(depth: Int) -> SceneNode {
        var parts: [String] = []
        for _ in 0..<(1 + choices.next(4)) {
            parts.append(bad(10) ? choices.pick(["}", "{", "{nope}", "{= 1 +}", "{= $b1 * 2}"])
                                 : choices.pick(["Ready", "{b1}", "{b0}", "{{", "}}", "°C ", "😀", "\u{301}",
                                                 "{= format($b0, 2)}", "{= $b1 + $b1 + $b1}", "{= $b0 > 1 ? 'a' : $b1}"]))
        }
        let repeats = choices.chance(5) ? choices.pick([100, 2000]) : 1
        return scalar(String(repeating: parts.joined(), count: repeats))
    }

    private mutating func pathData() -> String {
        var text = "M \(choices.pick(["0", "10", "-5", "1e7"])) \(choices.pick(["0", "20"]))"
        for _ in 0..<(1 + choices.next(6)) {
            let wild = hostile
            let coordinate = { (c: inout Choices) in c.pick(wild ? ["10", "50", "9e6", "1e300", "0.5"] : ["10", "50", "-20", "100", "9e6", "0.5"]) }
            switch choices.next(7) {
            case 0: text += " L \(coordinate(&choices)) \(coordinate(&choices))"
            case 1: text += " l \(coordinate(&choices)) \(coordinate(&choices))"
            case 2: text += " Q \(coordinate(&choices)) \(coordinate(&choices)) \(coordinate(&choices)) \(coordinate(&choices))"
            case 3: text += " C 1 2 \(coordinate(&choices)) \(coordinate(&choices)) 30 40"
            case 4: text += " A \(coordinate(&choices)) 20 0 1 0 \(coordinate(&choices)) 10"
            case 5: text += " Z"
            default: text += " H \(coordinate(&choices))"
            }
        }
        return text
    }

    private func list(_ items: [SceneNode]) -> SceneNode { SceneNode(.sequence(items), at: at) }

    private func map(_ entries: [(String, SceneNode)]) -> SceneNode {
        SceneNode(.mapping(entries.map { .init(key: SceneNode(.scalar($0.0), at: at), value: $0.1) }), at: at)
    }
}
