import LaminaSceneSyntax
import LaminaWidgets

/// A derived value a scene file writes as `= expression` (a property, a number inside a
/// point, size or rectangle, a state's value) or as `{= expression}` inside text: arithmetic,
/// comparison, conditionals and a few functions over the bindings, evaluated again whenever a
/// binding it names changes. Its kind is worked out when the file is compiled, so a value of
/// the wrong kind is a `file:line:column` error, never a surprise at run time.
///
/// ```yaml
/// backgroundColor: "= $free == 0 ? #EF4444 : #22C55E"
/// position: [1440, "= 120 + $fullest * 80"]
/// string: "{= format($load * 100, 1)} %"
/// ```
///
/// Evaluation is total: a division by zero or an overflow gives a number clamped to ±10⁷
/// (not-a-number gives 0), text is cut at 64 KiB, so no binding value set over the control
/// socket can make a property non-finite.
struct SceneExpression {
    /// What an expression gives.
    enum Kind: String {
        case number, text, colour, boolean
    }

    /// A value while evaluating.
    enum Value: Equatable {
        case number(Double)
        case text(String)
        case colour(Color)
        case boolean(Bool)

        /// As text, the way `{name}` shows a binding (numbers with up to 6 significant digits).
        var text: String {
            switch self {
            case .number(let v): return BindingValue.number(v).description
            case .text(let s): return s
            case .colour(let c): return c.hexString
            case .boolean(let b): return b ? "true" : "false"
            }
        }
    }

    indirect enum Node {
        case constant(Value)
        case binding(String)
        case negate(Node)
        case not(Node)
        case arithmetic(Character, Node, Node)
        case concatenate(Node, Node)
        case compare(String, Node, Node)
        case logical(isAnd: Bool, Node, Node)
        case conditional(Node, Node, Node)
        case call(Function, [Node])
    }

    /// The functions an expression may call.
    enum Function: String, CaseIterable {
        case min, max, abs, round, floor, ceil, clamp, format, mix
    }

    /// What an expression may be: bytes written, operations, nesting.
    enum Limits {
        static let bytes = 2048
        static let nodes = 256
        static let depth = 32
    }

    let root: Node
    /// What it gives.
    let kind: Kind
    /// The bindings it reads, each once, in the order first written.
    let bindingNames: [String]
    /// The expression as written (without the `=`), for messages.
    let source: String

    /// The value with the bindings' current values (`value(name)` is never nil for a name in
    /// `bindingNames`: the compiler checked them).
    func evaluate(_ value: (String) -> BindingValue?) -> Value {
        Self.evaluate(root, value)
    }

    /// The value as a number (clamped to ±10⁷; not-a-number is 0).
    func number(_ value: (String) -> BindingValue?) -> Double {
        guard case .number(let v) = evaluate(value) else { return 0 }
        return Self.clamped(v)
    }

    static func clamped(_ v: Double) -> Double {
        v.isNaN ? 0 : Swift.min(Swift.max(v, -SceneValueReader.numberLimit), SceneValueReader.numberLimit)
    }

    private static func evaluate(_ node: Node, _ value: (String) -> BindingValue?) -> Value {
        switch node {
        case .constant(let v): return v
        case .binding(let name):
            switch value(name) {
            case .number(let v)?: return .number(v)
            case .string(let s)?: return .text(s)
            case .color(let c)?: return .colour(c)
            case .list(let items)?: return .number(Double(items.count))      // a list reads as its length
            case nil: return .number(0)
            }
        case .negate(let a): return .number(-number(a, value))
        case .not(let a): return .boolean(!boolean(a, value))
        case .arithmetic(let op, let a, let b):
            let x = number(a, value), y = number(b, value)
            switch op {
            case "+": return .number(x + y)
            case "-": return .number(x - y)
            case "*": return .number(x * y)
            case "/": return .number(y == 0 ? 0 : x / y)
            default: return .number(y == 0 ? 0 : x.truncatingRemainder(dividingBy: y))
            }
        case .concatenate(let a, let b):
            let joined = evaluate(a, value).text + evaluate(b, value).text
            return .text(joined.utf8.count > SceneFileLimits.maximumScalarBytes
                         ? String(decoding: joined.utf8.prefix(SceneFileLimits.maximumScalarBytes), as: UTF8.self) : joined)
        case .compare(let op, let a, let b):
            let l = evaluate(a, value), r = evaluate(b, value)
            switch op {
            case "==": return .boolean(l == r)
            case "!=": return .boolean(l != r)
            default:
                guard case .number(let x) = l, case .number(let y) = r else { return .boolean(false) }
                switch op {
                case "<": return .boolean(x < y)
                case "<=": return .boolean(x <= y)
                case ">": return .boolean(x > y)
                default: return .boolean(x >= y)
                }
            }
        case .logical(let isAnd, let a, let b):
            return .boolean(isAnd ? boolean(a, value) && boolean(b, value) : boolean(a, value) || boolean(b, value))
        case .conditional(let c, let a, let b):
            return boolean(c, value) ? evaluate(a, value) : evaluate(b, value)
        case .call(let function, let arguments):
            return call(function, arguments, value)
        }
    }

    private static func call(_ function: Function, _ arguments: [Node], _ value: (String) -> BindingValue?) -> Value {
        func n(_ i: Int) -> Double { number(arguments[i], value) }
        switch function {
        case .min: return .number(arguments.indices.dropFirst().reduce(n(0)) { Swift.min($0, n($1)) })
        case .max: return .number(arguments.indices.dropFirst().reduce(n(0)) { Swift.max($0, n($1)) })
        case .abs: return .number(Swift.abs(n(0)))
        case .floor: return .number(n(0).rounded(.down))
        case .ceil: return .number(n(0).rounded(.up))
        case .round:
            guard arguments.count == 2 else { return .number(n(0).rounded()) }
            let scale = pow10(places(n(1)))
            return .number((n(0) * scale).rounded() / scale)
        case .clamp: return .number(Swift.min(Swift.max(n(0), n(1)), Swift.max(n(1), n(2))))
        case .format: return .text(String(cFormat: "%.*f", Int32(places(n(1))), clamped(n(0))))
        case .mix:
            let t = Swift.min(Swift.max(n(2), 0), 1)
            switch (evaluate(arguments[0], value), evaluate(arguments[1], value)) {
            case (.colour(let a), .colour(let b)):
                return .colour(Color(red: a.red + (b.red - a.red) * t, green: a.green + (b.green - a.green) * t,
                                     blue: a.blue + (b.blue - a.blue) * t, alpha: a.alpha + (b.alpha - a.alpha) * t))
            case (.number(let a), .number(let b)): return .number(a + (b - a) * t)
            default: return .number(0)
            }
        }
    }

    /// Decimal places for `round` and `format`: 0…10.
    private static func places(_ x: Double) -> Int { x.isNaN ? 0 : Int(Swift.min(Swift.max(x.rounded(), 0), 10)) }

    private static func pow10(_ n: Int) -> Double { (0..<n).reduce(1.0) { r, _ in r * 10 } }

    private static func number(_ node: Node, _ value: (String) -> BindingValue?) -> Double {
        if case .number(let v) = evaluate(node, value) { return v }
        return 0
    }

    private static func boolean(_ node: Node, _ value: (String) -> BindingValue?) -> Bool {
        if case .boolean(let b) = evaluate(node, value) { return b }
        return false
    }
}

// MARK: Reading

extension SceneExpression {
    /// Why an expression cannot be read, and where in it (a character offset from 1).
    struct Failure: Error {
        var offset: Int
        var reason: String
    }

    /// Whether a scalar is an expression: it starts with `=`.
    static func source(of node: SceneNode) -> String? {
        guard let text = node.scalar, text.hasPrefix("=") else { return nil }
        return String(text.dropFirst())
    }

    /// Reads `source` against the file's bindings (name → kind of value).
    init(_ source: String, bindings: [String: BindingValue]) throws(Failure) {
        guard source.utf8.count <= Limits.bytes else {
            throw Failure(offset: 1, reason: "longer than \(Limits.bytes) bytes")
        }
        var parser = Parser(source: Array(source.unicodeScalars), bindings: bindings)
        let (root, kind) = try parser.expression()
        parser.skipSpaces()
        guard parser.position == parser.source.count else {
            throw parser.failure("unexpected '\(String(String.UnicodeScalarView(parser.source[parser.position...].prefix(12))))'")
        }
        self.root = root
        self.kind = kind
        self.bindingNames = parser.names
        self.source = source
    }

    /// A recursive-descent reader with the kinds checked as it goes. Precedence, lowest first:
    /// `? :`, `||`, `&&`, comparisons, `+ -`, `* / %`, unary `- !`.
    private struct Parser {
        let source: [Unicode.Scalar]
        let bindings: [String: BindingValue]
        var position = 0
        var nodes = 0
        var depth = 0
        var names: [String] = []

        init(source: [Unicode.Scalar], bindings: [String: BindingValue]) {
            self.source = source
            self.bindings = bindings
        }

        func failure(_ reason: String, at offset: Int? = nil) -> Failure {
            Failure(offset: (offset ?? position) + 1, reason: reason)
        }

        mutating func skipSpaces() {
            while position < source.count, source[position].properties.isWhitespace { position += 1 }
        }

        /// Takes `token` when it comes next (after spaces).
        mutating func take(_ token: String) -> Bool {
            skipSpaces()
            let scalars = Array(token.unicodeScalars)
            guard position + scalars.count <= source.count, Array(source[position..<(position + scalars.count)]) == scalars else { return false }
            position += scalars.count
            return true
        }

        mutating func count() throws(Failure) {
            nodes += 1
            guard nodes <= Limits.nodes else { throw failure("more than \(Limits.nodes) operations") }
        }

        mutating func expression() throws(Failure) -> (Node, Kind) {
            depth += 1
            defer { depth -= 1 }
            guard depth <= Limits.depth else { throw failure("nested more than \(Limits.depth) deep") }
            let at = position
            let condition = try or()
            guard take("?") else { return condition }
            guard condition.1 == .boolean else { throw failure("a condition before '?' is true or false, not a \(condition.1.rawValue)", at: at) }
            let yes = try expression()
            guard take(":") else { throw failure("expected ':' after the value for true") }
            let elseAt = position
            let no = try expression()
            guard yes.1 == no.1 else {
                throw failure("both sides of ':' give the same kind of value: \(yes.1.rawValue) and \(no.1.rawValue)", at: elseAt)
            }
            try count()
            return (.conditional(condition.0, yes.0, no.0), yes.1)
        }

        mutating func or() throws(Failure) -> (Node, Kind) {
            var left = try and()
            while true {
                let at = position
                guard take("||") else { return left }
                let right = try and()
                try expectBooleans(left.1, right.1, "||", at)
                try count()
                left = (.logical(isAnd: false, left.0, right.0), .boolean)
            }
        }

        mutating func and() throws(Failure) -> (Node, Kind) {
            var left = try comparison()
            while true {
                let at = position
                guard take("&&") else { return left }
                let right = try comparison()
                try expectBooleans(left.1, right.1, "&&", at)
                try count()
                left = (.logical(isAnd: true, left.0, right.0), .boolean)
            }
        }

        func expectBooleans(_ a: Kind, _ b: Kind, _ op: String, _ at: Int) throws(Failure) {
            guard a == .boolean, b == .boolean else { throw failure("'\(op)' joins true-or-false values, not \(a.rawValue) and \(b.rawValue)", at: at) }
        }

        mutating func comparison() throws(Failure) -> (Node, Kind) {
            let left = try sum()
            skipSpaces()
            let at = position
            for op in ["==", "!=", "<=", ">=", "<", ">"] where take(op) {
                let right = try sum()
                guard left.1 == right.1 else {
                    throw failure("'\(op)' compares values of one kind, not \(left.1.rawValue) and \(right.1.rawValue)", at: at)
                }
                if op.count == 1 || op == "<=" || op == ">=" {
                    guard left.1 == .number else { throw failure("'\(op)' compares numbers; \(left.1.rawValue) values compare with == and !=", at: at) }
                }
                try count()
                return (.compare(op, left.0, right.0), .boolean)
            }
            return left
        }

        mutating func sum() throws(Failure) -> (Node, Kind) {
            var left = try product()
            while true {
                skipSpaces()
                let at = position
                if take("+") {
                    let right = try product()
                    try count()
                    if left.1 == .text || right.1 == .text {
                        left = (.concatenate(left.0, right.0), .text)        // text + anything: joined
                    } else {
                        try expectNumbers(left.1, right.1, "+", at)
                        left = (.arithmetic("+", left.0, right.0), .number)
                    }
                } else if take("-") {
                    let right = try product()
                    try expectNumbers(left.1, right.1, "-", at)
                    try count()
                    left = (.arithmetic("-", left.0, right.0), .number)
                } else {
                    return left
                }
            }
        }

        mutating func product() throws(Failure) -> (Node, Kind) {
            var left = try unary()
            while true {
                skipSpaces()
                let at = position
                guard let op = ["*", "/", "%"].first(where: { take($0) }) else { return left }
                let right = try unary()
                try expectNumbers(left.1, right.1, op, at)
                try count()
                left = (.arithmetic(Character(op), left.0, right.0), .number)
            }
        }

        func expectNumbers(_ a: Kind, _ b: Kind, _ op: String, _ at: Int) throws(Failure) {
            guard a == .number, b == .number else { throw failure("'\(op)' works on numbers, not \(a.rawValue) and \(b.rawValue)", at: at) }
        }

        mutating func unary() throws(Failure) -> (Node, Kind) {
            skipSpaces()
            let at = position
            if take("-") {
                let operand = try unary()
                guard operand.1 == .number else { throw failure("'-' negates a number, not a \(operand.1.rawValue)", at: at) }
                try count()
                return (.negate(operand.0), .number)
            }
            if take("!") {
                let operand = try unary()
                guard operand.1 == .boolean else { throw failure("'!' negates true or false, not a \(operand.1.rawValue)", at: at) }
                try count()
                return (.not(operand.0), .boolean)
            }
            return try primary()
        }

        static func isNameScalar(_ c: Unicode.Scalar) -> Bool {
            c.properties.isAlphabetic || ("0"..."9").contains(c) || c == "-" || c == "_"
        }

        mutating func primary() throws(Failure) -> (Node, Kind) {
            skipSpaces()
            try count()
            guard position < source.count else { throw failure("the expression ends where a value was expected") }
            let at = position
            let c = source[position]
            if take("(") {
                let inner = try expression()
                guard take(")") else { throw failure("expected ')'") }
                return inner
            }
            if c == "$" {
                position += 1
                let start = position
                while position < source.count, Self.isNameScalar(source[position]) { position += 1 }
                let name = String(String.UnicodeScalarView(source[start..<position]))
                guard let binding = bindings[name] else {
                    let hint = Spelling.nearest(name, in: Array(bindings.keys)).map { " (did you mean '$\($0)'?)" } ?? ""
                    throw failure(name.isEmpty ? "'$' names a binding" : "no binding is named '\(Escaped(name))'\(hint)", at: at)
                }
                if !names.contains(name) { names.append(name) }
                switch binding {
                case .number, .list: return (.binding(name), .number)
                case .string: return (.binding(name), .text)
                case .color: return (.binding(name), .colour)
                }
            }
            if c == "#" {
                position += 1
                let start = position
                while position < source.count, source[position].properties.isASCIIHexDigit { position += 1 }
                let text = "#" + String(String.UnicodeScalarView(source[start..<position]))
                do {
                    return (.constant(.colour(try Color(hex: text))), .colour)
                } catch {
                    throw failure("'\(text)' is not a colour: \(error)", at: at)
                }
            }
            if c == "'" || c == "\"" {
                position += 1
                let start = position
                while position < source.count, source[position] != c { position += 1 }
                guard position < source.count else { throw failure("text opened with \(c) is not closed", at: at) }
                let text = String(String.UnicodeScalarView(source[start..<position]))
                position += 1
                return (.constant(.text(text)), .text)
            }
            if ("0"..."9").contains(c) || c == "." {
                let start = position
                while position < source.count, ("0"..."9").contains(source[position]) || source[position] == "." { position += 1 }
                if position < source.count, source[position] == "e" || source[position] == "E" {
                    position += 1
                    if position < source.count, source[position] == "-" || source[position] == "+" { position += 1 }
                    while position < source.count, ("0"..."9").contains(source[position]) { position += 1 }
                }
                let text = String(String.UnicodeScalarView(source[start..<position]))
                guard SceneValueReader.isDecimal(Substring(text)), let v = Double(text), v.isFinite,
                      Swift.abs(v) <= SceneValueReader.numberLimit else {
                    throw failure("'\(text)' is not a number within ±10⁷", at: at)
                }
                return (.constant(.number(v)), .number)
            }
            guard c.properties.isAlphabetic else { throw failure("unexpected '\(Character(c))'") }
            let start = position
            while position < source.count, source[position].properties.isAlphabetic || ("0"..."9").contains(source[position]) { position += 1 }
            let word = String(String.UnicodeScalarView(source[start..<position]))
            switch word {
            case "true": return (.constant(.boolean(true)), .boolean)
            case "false": return (.constant(.boolean(false)), .boolean)
            default: break
            }
            guard let function = Function(rawValue: word) else {
                let known = Function.allCases.map(\.rawValue) + ["true", "false"]
                let hint = Spelling.nearest(word, in: known).map { " (did you mean '\($0)'?)" } ?? ""
                throw failure("'\(Escaped(word))' is not a function\(hint); bindings are written $name", at: at)
            }
            guard take("(") else { throw failure("expected '(' after \(word)") }
            var arguments: [(Node, Kind)] = []
            if !take(")") {
                repeat { arguments.append(try expression()) } while take(",")
                guard take(")") else { throw failure("expected ',' or ')' in \(word)(…)") }
            }
            return (.call(function, arguments.map(\.0)), try Self.check(function, arguments.map(\.1), failure: failure("", at: at)))
        }

        /// The kind `function` gives for arguments of `kinds`, or why they do not fit.
        static func check(_ function: Function, _ kinds: [Kind], failure: Failure) throws(Failure) -> Kind {
            func fail(_ reason: String) -> Failure { Failure(offset: failure.offset, reason: "\(function.rawValue)(…) \(reason)") }
            let numbers = kinds.allSatisfy { $0 == .number }
            switch function {
            case .min, .max:
                guard !kinds.isEmpty, numbers else { throw fail("takes one or more numbers") }
                return .number
            case .abs, .floor, .ceil:
                guard kinds.count == 1, numbers else { throw fail("takes one number") }
                return .number
            case .round:
                guard (1...2).contains(kinds.count), numbers else { throw fail("takes a number and, if wanted, decimal places") }
                return .number
            case .clamp:
                guard kinds.count == 3, numbers else { throw fail("takes a number, a lowest and a highest") }
                return .number
            case .format:
                guard kinds.count == 2, numbers else { throw fail("takes a number and its decimal places (0…10)") }
                return .text
            case .mix:
                guard kinds.count == 3, kinds[0] == kinds[1], kinds[0] == .number || kinds[0] == .colour, kinds[2] == .number else {
                    throw fail("takes two numbers or two colours and how far from the first to the second (0…1)")
                }
                return kinds[0]
            }
        }
    }
}
