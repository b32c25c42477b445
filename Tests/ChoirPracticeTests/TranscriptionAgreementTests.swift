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

    static func rows(_ path: String) throws -> [[Double]] {
        let text = try String(contentsOf: RealVoices.folder.appendingPathComponent(path), encoding: .utf8)
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { $0.split(separator: ",").map { Double($0)! } }
    }

    /// The notes of a reference track (`time_s,f0_hz,valid` every 10 ms): runs of kept frames that stay within 70
    /// cents of their own median, 120 ms or longer. A note starts where the voice is on it (as the judge hears an
    /// entrance, where the pitch arrives): from the first frame of its run within 50 cents of its pitch (nearer it
    /// than its neighbours), back through the frames where pYIN (a peer tracker) hears it there without a break
    /// (the reference leaves out onsets and glides).
    static func transcription(of name: String) throws -> [Transcribed] {
        let rows = try Self.rows("reference/\(name).consensus.csv")
        let pyin = try Self.rows("peers/librosa-pyin/\(name).csv")
        func arrival(before first: Double, cents: Double, after earliest: Double) -> Double {
            var start = first
            for row in pyin.reversed() where row[0] < first && row[0] > earliest {
                guard row[1] > 0, abs(1200 * log2(row[1] / 440) - cents) <= 50 else { break }
                start = row[0]
            }
            return start
        }
        let step = 0.01
        var runs: [(times: [Double], cents: [Double])] = []
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
            if var run = runs.last, time - run.times.last! <= 0.1, lastSilence < run.times.last!, abs(cents - Self.median(run.cents)) <= 70
            {
                run.times.append(time)
                run.cents.append(cents)
                runs[runs.count - 1] = run
            } else {
                runs.append(([time], [cents]))
                silentUntil.append(lastSilence)
            }
        }
        var notes: [Transcribed] = []
        var previousEnd: Double?
        for (run, silence) in zip(runs, silentUntil) where run.times.last! - run.times[0] >= 0.12 {
            let pitch = Self.median(run.cents)
            let midi = Int((pitch / 100).rounded()) + 69
            let afterSilence = previousEnd.map { silence > $0 } ?? true
            let within = zip(run.times, run.cents).first { abs($0.1 - pitch) <= 50 }!.0
            let onset = arrival(before: within, cents: pitch, after: max(silence, previousEnd ?? -1))
            if !afterSilence, let last = notes.last { notes[notes.count - 1].note.duration = onset - last.note.onset }
            let note = ExpectedNote(
                index: notes.count, measure: "\(notes.count + 1)", measureIndex: notes.count, onset: onset,
                duration: run.times.last! + step - onset, midi: midi, isEntrance: afterSilence || notes.last?.note.midi != midi,
                previousMIDI: afterSilence ? nil : notes.last?.note.midi, quarterSeconds: 0.5)
            notes.append(Transcribed(note: note, cents: pitch - Double(midi - 69) * 100))
            previousEnd = run.times.last!
        }
        return notes
    }

    static func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

    /// The takes that are a sequence of notes: not the Carnatic phrase, whose pitch is ornament throughout, nor the
    /// voice with a guitar, which is the accompanied tracker's matter.
    static let takes =
        ["vocadito_10", "vocadito_14", "sms_singing_female", "sms_soprano_E4", "dcs_S1_DYN", "dcs_A2_DYN", "dcs_T2_DYN", "dcs_B2_DYN"]
        + RealVoices.takes(startingWith: "vocobox_")

    /// The transcribed notes get the verdict the transcription gives them: in time, and right, flat or sharp by their
    /// median pitch. Within 10 cents of the tolerance either side is a matter of doubt, where right and flat (or
    /// sharp) both agree, and so is a note 40 cents or more off, which may be the next note sung flat or this one
    /// sung sharp. Issue 28 asks for 95%; the judge reaches 78% of 91 notes: amateur singers' unsteady notes 35 to 40
    /// cents off are read as the next note, and some entrances from a breath are placed where the breath's noise
    /// rises. This holds the judge where it is until then.
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
                if abs(cents) >= 40 { expected.insert(.wrong) }
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
        #expect(share >= 0.75, "\(agreed) of \(total); \(disagreements.joined(separator: "; "))")
    }
}
