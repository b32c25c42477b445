/// Learns a singer's vibrato rate from their longer notes. A singer's vibrato keeps much the same rate from
/// note to note, so a short note, which holds less than a cycle or two of it, can be centred by fitting it at
/// that rate rather than at any rate a singer might use.
public struct VibratoLearner: Sendable, Equatable {
    private var recent: [Double] = []

    public init() {}

    /// The median of the latest rates heard, in Hz, once three notes have shown one.
    public var rate: Double? {
        guard recent.count >= 3 else { return nil }
        return recent.sorted()[recent.count / 2]
    }

    /// Learns from one note's sung body (cents from the written pitch), if it is long and has a clear vibrato.
    mutating func learn(from body: [(time: Double, cents: Double)]) {
        guard let rate = NoteComparator.vibratoRate(of: body) else { return }
        recent.append(rate)
        if recent.count > 9 { recent.removeFirst() }
    }
}
