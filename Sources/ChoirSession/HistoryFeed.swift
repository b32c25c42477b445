import ChoirPractice

/// Hands the history what a judge added since the last call. A judge keeps all its verdicts and its whole trace;
/// the recorder must be given each of them once, however often the run saves.
struct HistoryFeed {
    private let recorder: SessionRecorder?
    private var results = 0
    private var trace = 0

    /// A feed into `recorder`; nil keeps no history.
    init(_ recorder: SessionRecorder?) { self.recorder = recorder }

    /// Queues the verdicts and trace points of `results` and `trace` that were not given before.
    mutating func save(results all: [NoteResult], trace allTrace: [TracePoint]) {
        recorder?.add(all[results...], trace: allTrace[trace...])
        results = all.count
        trace = allTrace.count
    }
}
