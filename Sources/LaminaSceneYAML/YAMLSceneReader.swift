import LaminaSceneSyntax
import Yams

/// Reads a scene file's YAML into ``SceneNode``s with Yams (libyaml), holding it to
/// ``SceneFileLimits``: aliases are expanded while counting nodes (a "billion laughs" file
/// stops at the bound), nesting and scalar lengths are checked, and a key written twice in a
/// mapping is an error. Everything the reader says carries a line and column.
///
/// It runs in the `lamina-scene` helper process, not in the daemon, because Yams links full
/// Foundation (decision 107).
public enum YAMLSceneReader {
    /// The tree of `text`, or the first error in it.
    public static func read(_ text: String) -> Result<SceneNode, SceneSyntaxError> {
        // A UTF-8 byte-order mark, which some editors write, is not part of the YAML.
        let text = text.unicodeScalars.first == "\u{FEFF}" ? String(text.unicodeScalars.dropFirst()) : text
        guard text.utf8.count <= SceneFileLimits.maximumFileBytes else {
            return .failure(SceneSyntaxError(at: nil, "the file is larger than \(SceneFileLimits.maximumFileBytes) bytes"))
        }
        let root: Node?
        do {
            root = try Yams.compose(yaml: text)
        } catch let error as YamlError {
            return .failure(syntaxError(error))
        } catch {
            return .failure(SceneSyntaxError(at: nil, "\(error)"))
        }
        guard let root else {
            return .failure(SceneSyntaxError(at: SourcePosition(line: 1, column: 1), "the file is empty"))
        }
        var budget = SceneFileLimits.maximumNodes
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        return Result { () throws(SceneSyntaxError) in try convert(root, depth: 0, budget: &budget, lines: lines) }
    }

    /// Whether the line of `key` goes on, after the key and its colon, with nothing but
    /// spaces before a `#`: the value was read as a comment.
    private static func commentFollows(_ key: SceneNode, in lines: [Substring]) -> Bool {
        let index = key.position.line - 1
        guard lines.indices.contains(index), let name = key.scalar else { return false }
        let line = lines[index].utf8
        let start = line.index(line.startIndex, offsetBy: max(key.position.column - 1, 0), limitedBy: line.endIndex) ?? line.endIndex
        var rest = line[start...]
        // Past the key as written (quoted keys are longer; then the colon is searched for).
        guard let colon = rest.dropFirst(name.utf8.count).firstIndex(of: UInt8(ascii: ":")) else { return false }
        rest = rest[rest.index(after: colon)...]
        return rest.drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }.first == UInt8(ascii: "#")
    }

    private static func position(_ mark: Mark?) -> SourcePosition {
        SourcePosition(line: mark?.line ?? 1, column: mark?.column ?? 1)
    }

    private static func convert(_ node: Node, depth: Int, budget: inout Int, lines: [Substring]) throws(SceneSyntaxError) -> SceneNode {
        let at = position(node.mark)
        budget -= 1
        guard budget >= 0 else {
            throw SceneSyntaxError(at: at, "more than \(SceneFileLimits.maximumNodes) nodes (counting what aliases repeat)")
        }
        guard depth <= SceneFileLimits.maximumDepth else {
            throw SceneSyntaxError(at: at, "nested deeper than \(SceneFileLimits.maximumDepth) levels")
        }
        switch node {
        case .scalar(let scalar):
            guard scalar.string.utf8.count <= SceneFileLimits.maximumScalarBytes else {
                throw SceneSyntaxError(at: at, "a value longer than \(SceneFileLimits.maximumScalarBytes) bytes")
            }
            // YAML's null (`~`, `null`, nothing) is an empty scalar marked null; quoted text stays
            // as written, so `""` is a value, not nothing.
            let isNull = scalar.style == .plain && ["~", "null", "Null", "NULL", ""].contains(scalar.string)
            return isNull ? .null(at: at) : SceneNode(.scalar(scalar.string), at: at)
        case .sequence(let sequence):
            var items: [SceneNode] = []
            for item in sequence { items.append(try convert(item, depth: depth + 1, budget: &budget, lines: lines)) }
            return SceneNode(.sequence(items), at: at)
        case .mapping(let mapping):
            var entries: [SceneNode.Entry] = []
            var seen: Set<String> = []
            for (key, value) in mapping {
                let keyNode = try convert(key, depth: depth + 1, budget: &budget, lines: lines)
                guard let name = keyNode.scalar else {
                    throw SceneSyntaxError(at: keyNode.position, "a key must be a plain name, not \(keyNode.kindName)")
                }
                guard seen.insert(name).inserted else {
                    throw SceneSyntaxError(at: keyNode.position, "'\(name)' is written twice in this mapping")
                }
                var valueNode = try convert(value, depth: depth + 1, budget: &budget, lines: lines)
                if valueNode.isNull, case .scalar(let written) = value, written.string.isEmpty {
                    valueNode.commentFollows = commentFollows(keyNode, in: lines)
                }
                entries.append(SceneNode.Entry(key: keyNode, value: valueNode))
            }
            return SceneNode(.mapping(entries), at: at)
        case .alias(let alias):
            throw SceneSyntaxError(at: position(alias.mark), "an unresolved alias")
        }
    }

    private static func syntaxError(_ error: YamlError) -> SceneSyntaxError {
        switch error {
        case .scanner(let context, let problem, let mark, _),
             .parser(let context, let problem, let mark, _),
             .composer(let context, let problem, let mark, _):
            let while_ = context.map { " (\($0.text) at \($0.mark.line):\($0.mark.column))" } ?? ""
            return SceneSyntaxError(at: position(mark), problem + while_)
        case .reader(let problem, let offset, _, _):
            return SceneSyntaxError(at: nil, "\(problem)\(offset.map { " at byte \($0)" } ?? "")")
        case .duplicatedKeysInMapping(let duplicates, let context):
            return SceneSyntaxError(at: position(context.mark), "keys written twice: \(duplicates.joined(separator: ", "))")
        default:
            return SceneSyntaxError(at: nil, "\(error)")
        }
    }
}
