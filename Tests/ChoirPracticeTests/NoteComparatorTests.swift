import ChoirPitch
import Foundation
import Testing

@testable import ChoirPractice

/// The comparator on pitch tracks with known answers.
struct NoteComparatorTests {
    /// Frames every 4 ms from `start` to `end` of a voice at `cents(t)` from A3.
    static func frames(from start: Double, to end: Double, cents: (Double) -> Double) -> [PitchFrame] {
        stride(from: start, to: end, by: 0.004).map { t in
            PitchFrame(time: t, frequency: 220 * pow(2, cents(t) / 1200), confidence: 0.95, level: 0.1)
        }
    }

    /// A fraction of a vibrato cycle leans a mean to one side; a fit at the singer's vibrato rate does not.
    @Test(arguments: [0.0, 1.0, 2.5, 4.0])
    func shortNotesAreCentredOnTheirVibrato(phase: Double) {
        let track = Self.frames(from: 0, to: 0.12) { 12 + 55 * sin(2 * .pi * 5.8 * $0 + phase) }
            .map { (time: $0.time, cents: 1200 * log2($0.frequency / 220)) }
        let known = NoteComparator.centre(track, vibratoRate: 5.8)
        #expect(abs(known.cents - 12) < 6, "centre \(known)")
        // Without the singer's rate, fits at other rates explain the fragment too: the centre is less sure, and
        // says so.
        let unknown = NoteComparator.centre(track, vibratoRate: nil)
        #expect(abs(unknown.cents - 12) <= unknown.uncertainty + 3, "centre \(unknown)")
    }

    /// Two frames far apart (a learned tracker's, with a gap between them) leave no frame a half cycle from both
    /// ends: the centre is their median, not a crash.
    @Test func framesFarApartAreCentred() {
        let track = [(time: 0.0, cents: 14.0), (time: 0.5, cents: 18.0)]
        #expect(NoteComparator.centre(track, vibratoRate: nil).cents == 18)
    }

    /// A long note shows the singer's vibrato rate; a straight tone shows none.
    @Test(arguments: [4.6, 5.5, 6.8])
    func vibratoRateOfALongNote(rate: Double) {
        let track = Self.frames(from: 0, to: 0.6) { -8 + 0.5 * $0 * 20 + 40 * sin(2 * .pi * rate * $0 + 1) }
            .map { (time: $0.time, cents: 1200 * log2($0.frequency / 220)) }
        let heard = NoteComparator.vibratoRate(of: track)
        #expect(abs((heard ?? 0) - rate) <= 0.1, "\(String(describing: heard))")
        let straight = Self.frames(from: 0, to: 0.6) { 5 + 2 * sin(40 * $0) }.map {
            (time: $0.time, cents: 1200 * log2($0.frequency / 220))
        }
        #expect(NoteComparator.vibratoRate(of: straight) == nil)
    }

    /// A singer who holds the previous note 200 ms into this one and then sings it in tune is late, not wrong:
    /// the pitch is judged where they settled.
    @Test func aHeldOverNoteIsLateNotWrong() {
        let track = Self.frames(from: 1.5, to: 2.6) { t in (t < 2.2 ? 300 : 8) + 30 * sin(2 * .pi * 5.5 * t) }
        let note = ExpectedNote(
            index: 1, measure: "2", measureIndex: 1, onset: 2, duration: 0.5, midi: 57, isEntrance: true, previousMIDI: 60)
        let result = NoteComparator().judge(note, frames: track)
        #expect(result.verdict == .late, "\(result)")
        #expect(abs((result.medianCents ?? 0) - 8) < 6, "\(result)")
        #expect(abs((result.onsetError ?? 0) - 0.2) < 0.03, "\(result)")
    }

    /// A short note in a run, sung in tune from its onset and left for the next note a tone and a half up by its
    /// second half, is judged where it was held: in tune, not sharp or wrong. A short note held sharp is still sharp.
    @Test(arguments: [(0.0, Verdict.correct), (40.0, .sharp)])
    func aShortNoteIsJudgedWhereItWasHeld(held: Double, verdict: Verdict) {
        let track = Self.frames(from: 1.5, to: 2.4) { t in
            t < 2 ? -200 : t < 2.13 ? held + 4 * sin(2 * .pi * 9 * t) : min(300, held + (t - 2.13) * 2500)
        }
        let note = ExpectedNote(
            index: 1, measure: "2", measureIndex: 1, onset: 2, duration: 0.25, midi: 57, isEntrance: true, previousMIDI: 55,
            quarterSeconds: 0.5)
        let result = NoteComparator().judge(note, frames: track)
        #expect(result.verdict == verdict, "\(result)")
        #expect(abs((result.medianCents ?? 0) - held) < 10, "\(result)")
    }

    /// A short last note sung at once in full voice and let fade after a tenth of a second was sung, not missed; one
    /// that is only a fading breath is missing.
    @Test(arguments: [(0.1, Verdict.correct), (0.01, .missing)])
    func aShortNoteLetFadeWasSung(level: Double, verdict: Verdict) {
        let track = Self.frames(from: 1.5, to: 2.5) { _ in 5 }.map { frame -> PitchFrame in
            var heard = frame
            heard.level = frame.time < 2 ? 0.001 : frame.time < 2.11 ? level : 0.01
            return heard
        }
        let note = ExpectedNote(
            index: 1, measure: "2", measureIndex: 1, onset: 2, duration: 0.28, midi: 57, isEntrance: true, quarterSeconds: 0.5)
        let result = NoteComparator(levelGate: 0.05).judge(note, frames: track)
        #expect(result.verdict == verdict, "\(result)")
    }

    /// Stray frames an octave down (the voice and the accompaniment repeating together) do not move the centre.
    @Test func strayOctaveFramesAreLeftOut() {
        var track = Self.frames(from: 0, to: 1) { 10 + 40 * sin(2 * .pi * 5.5 * $0) }
        for i in stride(from: 3, to: track.count, by: 7) { track[i].frequency /= 2 }
        let note = ExpectedNote(index: 0, measure: "1", measureIndex: 0, onset: 0, duration: 1, midi: 57, isEntrance: true)
        let result = NoteComparator().judge(note, frames: track)
        #expect(result.verdict == Verdict.correct && abs((result.medianCents ?? 0) - 10) < 4, "\(result)")
    }

    /// The voice fading at the end of a note cut short, with the room ringing on at the last pitch it reached,
    /// is not part of the note's pitch.
    @Test func aFadingTailIsLeftOut() {
        let track = Self.frames(from: 0, to: 0.8) { _ in 0 }.map { frame -> PitchFrame in
            var faded = frame
            if frame.time > 0.35 {
                faded.level = 0.04
                faded.frequency = 220 * pow(2, 60.0 / 1200)
            }
            return faded
        }
        let note = ExpectedNote(index: 0, measure: "1", measureIndex: 0, onset: 0, duration: 0.8, midi: 57, isEntrance: true)
        let result = NoteComparator(levelGate: 0.001).judge(note, frames: track)
        #expect(result.verdict == Verdict.correct && abs(result.medianCents ?? 99) < 3, "\(result)")
    }

    /// A legato step of a semitone with wide vibrato: the crests of the old note reach the new one, but the
    /// singer arrives when they leave the old note, here 150 ms late.
    @Test func lateSemitoneStepUnderWideVibrato() {
        let step = 2.15
        let track = Self.frames(from: 1, to: 3) { t in
            (t < step ? 100 : 0) + 55 * sin(2 * .pi * 5.5 * t)
        }
        let note = ExpectedNote(
            index: 1, measure: "2", measureIndex: 1, onset: 2, duration: 0.75, midi: 57, isEntrance: true, previousMIDI: 58)
        let result = NoteComparator().judge(note, frames: track)
        #expect(result.verdict == .late, "\(result)")
        #expect(abs((result.onsetError ?? 0) - 0.15) < 0.03, "\(result)")
        let onTime = NoteComparator().judge(
            note,
            frames: Self.frames(from: 1, to: 3) { t in
                (t < 2.01 ? 100 : 0) + 55 * sin(2 * .pi * 5.5 * t)
            })
        #expect(onTime.verdict == .correct, "\(onTime)")
    }
}

extension NoteComparatorTests {
    /// A tenor who sings the alto's D4 where the tenor has F4 is told so: the note is wrong, and the evidence names
    /// the alto's note; a note sung a semitone off that nobody else has names no one.
    @Test func aNoteFromAnotherLineIsNamed() {
        // A3 is MIDI 57: F4 is 8 semitones up, D4 5.
        let note = ExpectedNote(
            index: 0, measure: "12", measureIndex: 12, onset: 0, duration: 1, midi: 65, isEntrance: true,
            others: [.init(line: "Alto", midi: 62), .init(line: "Bass", midi: 46)])
        let comparator = NoteComparator()
        let borrowed = comparator.judge(note, frames: Self.frames(from: -0.1, to: 1.1) { _ in 500 + 4 })
        #expect(borrowed.verdict == .wrong)
        #expect(borrowed.evidence?.sangOther == .init(line: "Alto", midi: 62))
        #expect((borrowed.evidence?.voicedShare ?? 0) > 0.95 && (borrowed.evidence?.framesJudged ?? 0) > 100)
        let report = SessionReport(
            score: "s.musicxml", part: "Tenor", tempo: 60, tempoPercent: 100, options: NoteComparator.Options(),
            results: [borrowed], trace: [], measureStarts: [])
        #expect(TerminalReport.render(report, colour: false).contains("Other lines sung:\n  m. 12: sang the Alto's D4 for F4\n"))

        let off = comparator.judge(note, frames: Self.frames(from: -0.1, to: 1.1) { _ in 900 })
        #expect(off.verdict == .wrong && off.evidence?.sangOther == nil)
    }
}

extension NoteComparatorTests {
    /// A voice that comes in 300 ms late after a rest, all at once (a 5 ms fade), is reported 300 ms late, through
    /// the tracker's windows, however long they are: a bass's window is 50 ms, and its first frames at the pitch
    /// are windows that have only begun to take the voice in.
    @Test(arguments: [43, 55, 67, 79])
    func anEntranceAfterARestIsTimedWhereTheVoiceStarts(midi: Int) throws {
        let rate = 16000.0, late = 0.3
        let notes = [
            ExpectedNote(index: 0, measure: "1", measureIndex: 0, onset: 0.5, duration: 0.8, midi: midi, isEntrance: true),
            ExpectedNote(index: 1, measure: "2", measureIndex: 1, onset: 2, duration: 1, midi: midi + 2, isEntrance: true),
        ]
        var signal = [Float](repeating: 0, count: Int(3.5 * rate))
        for (note, start) in zip(notes, [notes[0].onset, notes[1].onset + late]) {
            let frequency = 440 * pow(2, Double(note.midi - 69) / 12)
            let first = Int(start * rate), count = Int(note.duration * rate)
            for i in 0..<count {
                let t = Double(i) / rate
                let envelope = min(1, t / 0.005, (note.duration - t) / 0.005)
                signal[first + i] = Float(0.2 * envelope * (sin(2 * .pi * frequency * t) + 0.5 * sin(4 * .pi * frequency * t)))
            }
        }
        // As a take is judged: its frames and the spectra that time its entrances.
        let analysis = try TakeAnalysis(samples: signal, sampleRate: rate, notes: notes, mix: nil)
        var judge = analysis.judge(notes, options: NoteComparator.Options())
        analysis.feed(&judge) { _, _ in true }
        _ = judge.finish()
        let results = judge.results
        #expect(results.map(\.verdict) == [.correct, .late], "\(results)")
        // Within 15 ms, a quarter of the tightest timing tolerance: the spectra's 64 ms windows place a sudden start
        // to within a few hops.
        #expect(abs((results[0].onsetError ?? 1) - 0) <= 0.015, "\(results[0])")
        #expect(abs((results[1].onsetError ?? 1) - late) <= 0.015, "\(results[1])")
    }
}

extension NoteComparatorTests {
    /// After a rest, a voice that starts on the beat 90 cents under its note (C3) and scoops up into it over a fifth of
    /// a second has come in where its pitch arrives (within 70 cents, 44 ms in), as a transcription from the pitch
    /// track says, not where the voice started: at so low a note the scoop stays inside the note's harmonics, whose
    /// rise began with it. A voice that starts on the note comes in on the beat.
    @Test(arguments: [-90.0, 0])
    func aScoopIntoAnEntranceIsTimedWhereItArrives(from cents: Double) throws {
        let rate = 16000.0, onset = 0.5, fall = 0.2
        let note = ExpectedNote(index: 0, measure: "1", measureIndex: 0, onset: onset, duration: 1, midi: 48, isEntrance: true)
        var signal = [Float](repeating: 0, count: Int(2 * rate))
        var phase = 0.0
        for i in Int(onset * rate)..<Int((onset + note.duration) * rate) {
            let t = Double(i) / rate - onset
            phase += 2 * .pi * 130.81 * pow(2, cents * max(0, 1 - t / fall) / 1200) / rate
            let envelope = min(1, t / 0.005, (note.duration - t) / 0.005)
            signal[i] = Float(0.2 * envelope * (sin(phase) + 0.5 * sin(2 * phase)))
        }
        let analysis = try TakeAnalysis(samples: signal, sampleRate: rate, notes: [note], mix: nil)
        var judge = analysis.judge([note], options: NoteComparator.Options())
        analysis.feed(&judge) { _, _ in true }
        _ = judge.finish()
        let result = try #require(judge.results.first)
        let arrives = cents != 0 ? fall * (1 - 70 / abs(cents)) : 0
        #expect(result.verdict == .correct && abs((result.onsetError ?? 1) - arrives) <= 0.015, "\(result)")
    }
}

extension NoteComparatorTests {
    /// Quavers at ♩ = 96 sung as a sampled choir sounds them: each swells in over 0.1 s while the note before dies
    /// away slowly (a time constant of 0.4 s), so that the note before stays about as loud for much of each quaver
    /// and a one-pitch tracker hears it, or a pitch between the two. Each note is read from its own harmonics: in
    /// tune, within 10 cents, and no note is called wrong, flat or sharp. (Its timing is the entrance's matter.)
    @Test func aQuaverUnderTheReleaseOfTheNoteBeforeIsReadAtItsOwnPitch() throws {
        let rate = 48000.0, quaver = 0.3125
        let line = [67, 69, 67, 65, 69, 67]
        var notes: [ExpectedNote] = []
        var signal = [Float](repeating: 0, count: Int(4 * rate))
        for (index, midi) in line.enumerated() {
            let onset = 0.5 + Double(index) * quaver, duration = index == line.count - 1 ? 1 : quaver
            notes.append(
                ExpectedNote(
                    index: index, measure: "1", measureIndex: 0, onset: onset, duration: duration, midi: midi,
                    isEntrance: true, previousMIDI: index > 0 ? line[index - 1] : nil, quarterSeconds: 2 * quaver))
            EntranceTests.tone(
                440 * pow(2, Double(midi - 69) / 12), from: onset, to: onset + duration, attack: 0.1, release: 0.4,
                into: &signal, sampleRate: rate, amplitude: 0.1)
        }
        let analysis = try TakeAnalysis(samples: signal, sampleRate: rate, notes: notes, mix: nil)
        var judge = analysis.judge(notes, options: NoteComparator.Options())
        analysis.feed(&judge) { _, _ in true }
        _ = judge.finish()
        #expect(judge.results.count == line.count)
        for result in judge.results {
            #expect(![.wrong, .flat, .sharp].contains(result.verdict) && abs(result.medianCents ?? 100) <= 10, "\(result)")
        }
    }
}
