import ChoirTestSupport
import Foundation
import Testing

@testable import ChoirPractice

/// The judge on real singing, against a note transcription made from each take's reference pitch track (the four
/// strong trackers' consensus in `../shared/voices`, not choir's tracker): with the transcription as the score, the
/// judge should say what the transcription says of every note.
struct TranscriptionAgreementTests {
    /// A note of a transcription, and what it says of the note: its median pitch, in cents from the written one.
    struct Transcribed {
        var note: ExpectedNote
        var cents: Double
    }

    /// The notes of a reference track (`time_s,f0_hz,valid` every 10 ms): runs of kept frames that stay within 70
    /// cents of their own median, 120 ms or longer. The reference leaves out a note's onset and its glides, so a note
    /// starts where silence ends, or halfway through the frames left out between it and the note before.
    static func transcription(of name: String) throws -> [Transcribed] {
        let text = try String(contentsOf: RealVoices.folder.appendingPathComponent("reference/\(name).consensus.csv"), encoding: .utf8)
        let rows = text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { $0.split(separator: ",").map { Double($0)! } }
        let step = 0.01
        var runs: [(first: Double, last: Double, cents: [Double])] = []
        var silentUntil: [Double] = []  // for each run, where the silence before it (if any) ended
        var lastSilence = -1.0
        for row in rows {
            let (time, f0, kept) = (row[0], row[1], row[2] == 1)
            guard kept else { continue }
            guard f0 > 0 else {
                lastSilence = time
                continue
            }
            let cents = 1200 * log2(f0 / 440)
            if var run = runs.last, time - run.last <= 0.1, lastSilence < run.last, abs(cents - Self.median(run.cents)) <= 70 {
                run.last = time
                run.cents.append(cents)
                runs[runs.count - 1] = run
            } else {
                runs.append((time, time, [cents]))
                silentUntil.append(lastSilence)
            }
        }
        var notes: [Transcribed] = []
        var previousEnd: Double?
        for (run, silence) in zip(runs, silentUntil) where run.last - run.first >= 0.12 {
            let pitch = Self.median(run.cents)
            let midi = Int((pitch / 100).rounded()) + 69
            let afterSilence = previousEnd.map { silence > $0 } ?? true
            let onset = afterSilence ? max(silence + step, run.first - 0.15) : (previousEnd! + run.first) / 2
            if !afterSilence, let last = notes.last { notes[notes.count - 1].note.duration = onset - last.note.onset }
            let note = ExpectedNote(
                index: notes.count, measure: "\(notes.count + 1)", measureIndex: notes.count, onset: onset,
                duration: run.last + step - onset, midi: midi, isEntrance: afterSilence || notes.last?.note.midi != midi,
                previousMIDI: afterSilence ? nil : notes.last?.note.midi, quarterSeconds: 0.5)
            notes.append(Transcribed(note: note, cents: pitch - Double(midi - 69) * 100))
            previousEnd = run.last
        }
        return notes
    }

    static func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

    /// The takes that are a sequence of notes: not the Carnatic phrase, whose pitch is ornament throughout, nor the
    /// voice with a guitar, which is the accompanied tracker's matter.
    static let takes =
        ["vocadito_10", "vocadito_14", "sms_singing_female", "sms_soprano_E4", "dcs_S1_DYN", "dcs_A2_DYN", "dcs_T2_DYN", "dcs_B2_DYN"]
        + RealVoices.takes(startingWith: "vocobox_")

    /// At least 95% of the transcribed notes get the verdict the transcription gives them: in time, and right, flat
    /// or sharp by their median pitch. Within 10 cents of the tolerance either side is a matter of doubt, where
    /// right and flat (or sharp) both agree.
    @Test func verdictsAgreeWithTheTranscription() throws {
        let options = NoteComparator.Options()
        var agreed = 0, total = 0
        var disagreements: [String] = []
        for name in Self.takes {
            let transcribed = try Self.transcription(of: name)
            guard !transcribed.isEmpty else { continue }
            let audio = try RealVoices.take(name)
            let notes = transcribed.map(\.note)
            let analysis = try TakeAnalysis(samples: audio.samples, sampleRate: Double(audio.sampleRate), notes: notes, mix: nil)
            var judge = analysis.judge(notes, options: options)
            analysis.feed(&judge) { _, _ in true }
            _ = judge.finish()
            for result in judge.results {
                let cents = transcribed[result.note.index].cents
                let tolerance = options.toleranceCents
                var expected: Set<Verdict> = abs(cents) <= tolerance + 10 ? [.correct] : []
                if cents < -tolerance + 10 { expected.insert(.flat) }
                if cents > tolerance - 10 { expected.insert(.sharp) }
                total += 1
                if expected.contains(result.verdict) {
                    agreed += 1
                } else {
                    disagreements.append(
                        "\(name) \(result.note.name) at \(String(format: "%.2f", result.note.onset)) s (\(Int(cents.rounded())) c): "
                            + "\(result.verdict), \(result.offsetText ?? "-")")
                }
            }
        }
        let share = Double(agreed) / Double(max(1, total))
        print("transcription agreement: \(agreed) of \(total) notes (\(String(format: "%.1f", 100 * share))%)")
        for line in disagreements { print("  disagrees: \(line)") }
        #expect(total >= 60)
        #expect(share >= 0.95, "\(agreed) of \(total); \(disagreements.joined(separator: "; "))")
    }
}
