import ChoirPractice

/// A mistake a test singer plants in one note, so that judging is tested against known answers.
public enum PlantedMistake: String, Sendable, CaseIterable, Codable {
    /// 30–45 cents low or high.
    case flat, sharp
    /// 1–4 semitones away.
    case wrong
    /// An octave away.
    case octave
    /// Not sung.
    case missing
    /// 150 or 300 ms before or after the beat.
    case early, late

    /// The verdict a fair judge gives it.
    public var verdict: Verdict {
        switch self {
        case .flat: .flat
        case .sharp: .sharp
        case .wrong: .wrong
        case .octave: .octave
        case .missing: .missing
        case .early: .early
        case .late: .late
        }
    }

    /// Whether the mistake is one of timing.
    public var isTiming: Bool { self == .early || self == .late }

    /// How far from the beat a singer making this mistake comes in, in seconds (before it below 0): 150 or 300 ms,
    /// by chance; 0 for the others.
    public func timing(random: inout SplitMix) -> Double {
        guard isTiming else { return 0 }
        return (random.unit() < 0.5 ? 0.15 : 0.3) * (self == .early ? -1 : 1)
    }

    /// Chooses which of `notes` to get wrong (about `share` of them), and how. Only notes of 0.3 s or more, no
    /// two neighbours, so that each mistake is heard on its own; late entrances only where `canComeInLate` (by
    /// default, where an entrance can be heard and the note is long enough to come in 300 ms late), early ones only
    /// where `canComeInEarly` (by default, where an entrance can be heard and the rest before it leaves room to come
    /// in 300 ms early, or the note before is long enough to be cut short by that much and still be heard).
    public static func plan(
        _ notes: [ExpectedNote], share: Double, seed: UInt64, kinds: [PlantedMistake] = allCases,
        canComeInLate: (ExpectedNote) -> Bool = { $0.isEntrance && $0.duration >= 0.45 },
        canComeInEarly: (ExpectedNote, ExpectedNote?) -> Bool = { note, before in
            note.isEntrance && (before.map { note.onset - $0.end >= 0.35 || $0.duration >= 0.75 } ?? (note.onset >= 0.35))
        }
    ) -> [Int: PlantedMistake] {
        var random = SplitMix(seed: seed)
        var planted: [Int: PlantedMistake] = [:]
        for (position, note) in notes.enumerated() where note.duration >= 0.3 {
            guard random.unit() < share, planted[note.index - 1] == nil else { continue }
            var choices = kinds
            if !canComeInLate(note) { choices.removeAll { $0 == .late } }
            if !canComeInEarly(note, position > 0 ? notes[position - 1] : nil) { choices.removeAll { $0 == .early } }
            guard !choices.isEmpty else { continue }
            planted[note.index] = choices[Int(random.next() % UInt64(choices.count))]
        }
        return planted
    }
}

extension PlantedMistake {
    /// How far from the written pitch a singer making this mistake sings, in cents: 30–45 low or high, 1–4
    /// semitones either way, or an octave (up or down as `octaveUp` says); 0 for the others.
    public func offset(random: inout SplitMix, octaveUp: Bool) -> Double {
        switch self {
        case .flat: -(30 + random.unit() * 15)
        case .sharp: 30 + random.unit() * 15
        case .wrong: Double(1 + Int(random.next() % 4)) * 100 * (random.unit() < 0.5 ? -1 : 1)
        case .octave: octaveUp ? 1200 : -1200
        case .missing, .early, .late: 0
        }
    }
}

/// A singer that sings a line's notes with mistakes planted where told.
public protocol PlantingSinger {
    /// Mono samples at ``sampleRate`` whose time 0 is the notes' time 0, `length` seconds long.
    func perform(_ notes: [ExpectedNote], mistakes: [Int: PlantedMistake], length: Double) -> [Float]
    /// Which notes to get wrong, and how, with mistakes of `kinds` only.
    func plan(_ notes: [ExpectedNote], kinds: [PlantedMistake]) -> [Int: PlantedMistake]
    var sampleRate: Double { get }
}

extension PlantingSinger {
    /// Which notes to get wrong, and how, with mistakes of every kind.
    public func plan(_ notes: [ExpectedNote]) -> [Int: PlantedMistake] { plan(notes, kinds: PlantedMistake.allCases) }
}
