/// A frame's damage records in drawing order: those the walk made itself, and those of the
/// kept subtrees it replayed, held where they were drawn rather than copied in (decision
/// 160). Every replayed subtree's records would otherwise be copied into the frame's list and
/// read again by damage, every frame: for a big tree where one layer moves, most of the
/// memory a frame touches.
struct DrawRecords {
    typealias Entry = (key: DrawKey, record: DrawRecord)

    /// The records the walk made itself, in drawing order.
    private(set) var own: [Entry] = []
    /// Kept subtrees' records, each drawn just before `own[before]` (or after every own record
    /// when `before` is `own.count`), ascending by `before` and in drawing order.
    private(set) var replays: [(before: Int, drawing: SubtreeDrawing)] = []
    /// How many records there are, replayed ones included.
    private(set) var count = 0

    /// Makes room for `own` records of the walk's own and `replays` replays.
    mutating func reserveCapacity(own: Int, replays: Int) {
        self.own.reserveCapacity(own)
        self.replays.reserveCapacity(replays)
    }

    /// Appends a record the walk made.
    mutating func append(_ entry: Entry) {
        own.append(entry)
        count += 1
    }

    /// Appends a kept subtree's records, as they are (nothing for a subtree that has none).
    mutating func appendReplay(of drawing: SubtreeDrawing) {
        guard !drawing.records.isEmpty else { return }
        replays.append((own.count, drawing))
        count += drawing.records.count
    }

    /// A place in the sequence: what is appended after it is `entries(since:)`.
    struct Mark {
        var own: Int
        var replays: Int
    }

    /// The place after everything appended so far.
    var end: Mark { Mark(own: own.count, replays: replays.count) }

    /// The records from `mark` on, in drawing order, in one array.
    func entries(since mark: Mark = Mark(own: 0, replays: 0)) -> [Entry] {
        var result: [Entry] = []
        // Room for the records from the mark on (a subtree's, when it is cached anew), not the frame's.
        let before = mark.own + replays[..<mark.replays].reduce(0) { $0 + $1.drawing.records.count }
        result.reserveCapacity(count - before)
        var replay = mark.replays
        for i in mark.own...own.count {
            while replay < replays.count, replays[replay].before == i {
                result.append(contentsOf: replays[replay].drawing.records)
                replay += 1
            }
            if i < own.count { result.append(own[i]) }
        }
        return result
    }

    /// The records drawn after `own[index]`, in drawing order.
    func entries(afterOwn index: Int) -> [Entry] {
        entries(since: Mark(own: index + 1, replays: replays.firstIndex { $0.before > index } ?? replays.count))
    }

    /// Every record, in drawing order.
    var all: [Entry] { entries() }

    /// The index in `own` of the last record when the walk made it itself (no replay after it).
    var lastOwnIndex: Int? {
        guard !own.isEmpty, replays.last?.before != own.count else { return nil }
        return own.count - 1
    }

    /// Sets the digest of `own[index]`.
    mutating func setDigest(_ digest: Int, ofOwn index: Int) {
        own[index].record.digest = digest
    }

    // MARK: Walking two frames' records side by side

    /// A place while reading the records one by one: an own record, or a record inside a
    /// replay.
    struct Cursor {
        var own = 0
        var replay = 0
        /// How far into `replays[replay]` when inside it.
        var offset = 0
    }

    /// The replayed drawing that starts at `cursor`, if one does.
    func replay(startingAt cursor: Cursor) -> SubtreeDrawing? {
        guard cursor.offset == 0, cursor.replay < replays.count, replays[cursor.replay].before == cursor.own else { return nil }
        return replays[cursor.replay].drawing
    }

    /// The record at `cursor` (which must not be past the end).
    func entry(at cursor: Cursor) -> Entry {
        if cursor.replay < replays.count, replays[cursor.replay].before == cursor.own {
            return replays[cursor.replay].drawing.records[cursor.offset]
        }
        return own[cursor.own]
    }

    /// Moves `cursor` past the record at it.
    func advance(_ cursor: inout Cursor) {
        if cursor.replay < replays.count, replays[cursor.replay].before == cursor.own {
            cursor.offset += 1
            if cursor.offset == replays[cursor.replay].drawing.records.count {
                cursor.replay += 1
                cursor.offset = 0
            }
        } else {
            cursor.own += 1
        }
    }

    /// Moves `cursor` past the whole replay starting at it (`replay(startingAt:)`).
    func skipReplay(_ cursor: inout Cursor) {
        cursor.replay += 1
        cursor.offset = 0
    }
}
