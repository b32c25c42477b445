import ChoirPractice
import Foundation
import Testing

@testable import ChoirSession

/// Only a session in which something is sung is kept: the first note heard or pitch traced begins it, with what
/// was judged before; one that ends before keeps nothing, and one that ends early is kept as interrupted.
struct SessionRecorderTests {
    static func history() -> String { NSTemporaryDirectory() + "choir-recorder-\(UUID().uuidString)/history.sqlite" }

    static let header = SessionReport(
        score: "piece.musicxml", part: "Tenor", tempo: 60, options: NoteComparator.Options(), results: [], trace: [],
        measureStarts: [MeasureMark(number: "1", time: 0)])

    /// Where a session stopped early: in its first measure, after its first note.
    static let stop = SessionReport.Interruption(measure: "1", pass: 1, passes: 1, notes: 4)

    static func result(_ index: Int, _ verdict: Verdict) -> NoteResult {
        NoteResult(
            note: ExpectedNote(index: index, measure: "1", measureIndex: 0, onset: Double(index), duration: 1, midi: 60, isEntrance: true),
            verdict: verdict, medianCents: verdict == .missing ? nil : 0, onsetError: nil, inTunePercent: 0)
    }

    @Test func nothingSungKeepsNothing() throws {
        let path = Self.history()
        let recorder = SessionRecorder(path: path, header: Self.header)
        recorder.add([Self.result(0, .missing), Self.result(1, .missing)], trace: [])
        recorder.finish(audio: nil)
        #expect(recorder.stored == nil && recorder.failure == nil)
        #expect(try PracticeHistory(path: path).sessions().isEmpty)
    }

    /// The notes missed before the singer came in are kept with the session the first sung note begins.
    @Test func theFirstSungNoteBeginsTheSession() throws {
        let path = Self.history()
        let recorder = SessionRecorder(path: path, header: Self.header)
        recorder.add([Self.result(0, .missing)], trace: [])
        recorder.add([Self.result(1, .missing)], trace: [])
        recorder.add([Self.result(2, .flat)], trace: [TracePoint(time: 2.1, midi: 59.6)])
        recorder.add([Self.result(3, .correct)], trace: [])
        recorder.finish(audio: nil)
        let id = try #require(recorder.stored)
        let history = try PracticeHistory(path: path)
        #expect(try history.report(session: id).results.map(\.verdict) == [.missing, .missing, .flat, .correct])
        #expect(try history.sessions().map { [$0.finished, $0.sung] } == [[true, true]])
    }

    /// A pitch traced before any note is judged begins the session too.
    @Test func aTracedPitchBeginsTheSession() throws {
        let recorder = SessionRecorder(path: Self.history(), header: Self.header)
        recorder.add([NoteResult](), trace: [TracePoint(time: 0.2, midi: 60)])
        recorder.finish(audio: nil, interrupted: Self.stop)
        #expect(recorder.stored != nil)
    }

    @Test func anEndBeforeTheEndIsKeptAsInterrupted() throws {
        let path = Self.history()
        let recorder = SessionRecorder(path: path, header: Self.header)
        recorder.add([Self.result(0, .correct)], trace: [])
        recorder.finish(audio: AudioHealth(underruns: 1, overruns: 0, droppedSamples: 0), interrupted: Self.stop)
        let history = try PracticeHistory(path: path)
        let session = try #require(try history.sessions().first)
        #expect(!session.finished && session.sung && session.notes == 1)
        #expect(try history.report(session: session.id).interruption == Self.stop)
    }
}
