import ChoirPitch
import ChoirPlayback
import ChoirPractice
import ChoirScore
import Foundation

/// A singer performing a line of a score with planted mistakes, judged as a file session judges a take: the
/// known answers, and what the judge said.
public struct PlantedTake {
    /// Which of two sets a performance belongs to: the one the judge may be tuned on, or the one it is only
    /// checked on.
    public enum Set: String, Sendable {
        case tuning, checking
    }

    /// What the microphone hears besides the singer.
    public enum Bleed: Sendable, Equatable {
        /// Nothing: a dry take (headphones).
        case none
        /// The other lines through loudspeakers in a room (``Loudspeakers``, the seed picks the room), `decibels`
        /// relative to the voice.
        case loudspeakers(decibels: Double, room: UInt64)
        /// The other lines played in the room on an instrument choir did not play (`program`, General MIDI from 0: 0
        /// a piano, 24 a nylon guitar), heard through the room as ``Loudspeakers`` colours it, `decibels` relative
        /// to the voice: nothing to take out, so the session is told to expect it (`--accompanied`).
        case accompaniment(decibels: Double, program: Int, room: UInt64)
    }

    public var name: String
    public var set: Set
    public var score: Score
    public var part: String
    public var singer: any PlantingSinger

    public init(name: String, set: Set, score: Score, part: String, singer: any PlantingSinger) {
        self.name = name
        self.set = set
        self.score = score
        self.part = part
        self.singer = singer
    }

    /// The project's folder, for the scores the takes sing.
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Reads a score of the project's (a path from its root).
    public static func score(_ path: String) throws -> Score {
        try ScoreReader.read(contentsOf: root.appendingPathComponent(path).path)
    }

    /// The singer's notes, what they were told to get wrong, and the judge's results on their performance.
    public struct Outcome {
        public var notes: [ExpectedNote]
        public var planted: [Int: PlantedMistake]
        public var results: [NoteResult]
        /// The frames judged, and the level gate they were judged with.
        public var frames: [PitchFrame]
        public var gate: LevelGate
    }

    /// How the loudspeakers' echo is taken out of the microphone before judging.
    public enum Canceller: String, Sendable {
        /// choir's own (``EchoPath``, ``Convolution``), as a file session does.
        case choir
        /// speexdsp's adaptive filter (``SpeexCanceller``).
        case speex
        /// None: the echo stays, and frames are held against it as measured by the path's strongest tap (what
        /// choir did before it took the echo out).
        case gate
    }

    /// A performance: the singer's notes, what they were told to get wrong, what the microphone recorded, and what
    /// played while it did.
    public struct Performance: Sendable {
        public var notes: [ExpectedNote]
        public var planted: [Int: PlantedMistake]
        /// Mono samples at the singer's rate whose time 0 is the notes' time 0.
        public var take: [Float]
        /// The other lines' mix, as played (before the room), sample for sample with the take; nil for a dry take.
        public var played: [Float]?
        /// Whether the take holds an accompaniment choir did not play (``Bleed/accompaniment(decibels:program:room:)``).
        public var accompanied = false
    }

    /// Performs the take with `bleed`, with mistakes of `kinds`, of the range and tempo `playback` sets (its
    /// singer is the take's part).
    public func perform(
        bleed: Bleed, kinds: [PlantedMistake] = PlantedMistake.allCases, playback: PlaybackOptions = PlaybackOptions()
    ) throws -> Performance {
        let lines = score.lines
        let singerLine = try LineSelector.select(part, from: lines)
        var playback = playback
        playback.singer = singerLine
        let schedule = try Schedule(score: score, lines: lines, options: playback)
        let notes = ExpectedNote.notes(of: singerLine, in: schedule, score: score)
        let planted = singer.plan(notes, kinds: kinds)
        let rate = singer.sampleRate
        var take = singer.perform(notes, mistakes: planted, length: schedule.length + 1)
        var played: [Float]?
        var accompanied = false
        func others(program: Int?) throws -> [Float] {
            var request = Mixer.Request()
            request.singers = [singerLine]
            request.muteMine = true
            let programs = Instruments.programs(for: lines, in: score).map { program ?? $0 }
            let renderer = try SynthRenderer(
                soundFont: try SoundFont.locate(explicit: nil, environment: ProcessInfo.processInfo.environment),
                sampleRate: Int(rate), schedule: schedule, programs: programs, mixer: try Mixer(lineCount: lines.count, request: request))
            let (left, right) = renderer.renderAll()
            return zip(left, right).map { ($0 + $1) / 2 }
        }
        func add(_ mix: [Float], decibels: Double, room: UInt64) {
            let heard = Loudspeakers(sampleRate: rate, seed: room).play(mix)
            func rms(_ x: [Float]) -> Double { (x.reduce(0.0) { $0 + Double($1 * $1) } / Double(max(1, x.count))).squareRoot() }
            let gain = Float(rms(take) / max(1e-9, rms(heard)) * pow(10, decibels / 20))
            for i in take.indices where i < heard.count { take[i] += gain * heard[i] }
        }
        switch bleed {
        case .none: break
        case .loudspeakers(let decibels, let room):
            let mix = try others(program: nil)
            add(mix, decibels: decibels, room: room)
            played = mix
        case .accompaniment(let decibels, let program, let room):
            add(try others(program: program), decibels: decibels, room: room)
            accompanied = true
        }
        return Performance(notes: notes, planted: planted, take: take, played: played, accompanied: accompanied)
    }

    /// Judges `takes` at once, each as ``judge(bleed:canceller:options:kinds:tracker:)`` does with `bleed` in a
    /// room of its own (seeded by the take's place, from 1); nil for a take that could not be judged.
    public static func judge(
        _ takes: [PlantedTake], bleed: Bleed, canceller: Canceller = .choir, kinds: [PlantedMistake] = PlantedMistake.allCases,
        tracker: PitchTrackerKind = .auto
    ) -> [Outcome?] {
        nonisolated(unsafe) var outcomes = [Outcome?](repeating: nil, count: takes.count)
        nonisolated(unsafe) let shared = takes
        outcomes.withUnsafeMutableBufferPointer { results in
            nonisolated(unsafe) let results = results
            DispatchQueue.concurrentPerform(iterations: takes.count) { i in
                var room = bleed
                switch bleed {
                case .loudspeakers(let decibels, _): room = .loudspeakers(decibels: decibels, room: UInt64(i + 1))
                case .accompaniment(let decibels, let program, _):
                    room = .accompaniment(decibels: decibels, program: program, room: UInt64(i + 1))
                case .none: break
                }
                results[i] = try? shared[i].judge(bleed: room, canceller: canceller, kinds: kinds, tracker: tracker)
            }
        }
        return outcomes
    }

    /// Performs the take, with `bleed`, and judges it as a file session does, with `tracker` (by default as a session
    /// chooses: YIN guided by the learned tracker with an accompaniment choir did not play, else YIN).
    public func judge(
        bleed: Bleed, canceller: Canceller = .choir, options: NoteComparator.Options = NoteComparator.Options(),
        kinds: [PlantedMistake] = PlantedMistake.allCases, tracker: PitchTrackerKind = .auto
    ) throws -> Outcome {
        let performance = try perform(bleed: bleed, kinds: kinds)
        let (notes, take, played, rate) = (performance.notes, performance.take, performance.played, singer.sampleRate)
        let accompanied = performance.accompanied
        let analysis: TakeAnalysis
        if canceller == .speex, let played {
            let (cleaned, echo) = SpeexCanceller.cancel(take, mix: played, sampleRate: rate)
            analysis = try TakeAnalysis(
                cleaned: cleaned, echo: echo, loudspeakers: 0, sampleRate: rate, notes: notes, tracker: tracker,
                accompanied: accompanied)
        } else if canceller == .gate, let played {
            let path = EchoPath.forRecording(sampleRate: rate, count: take.count)
            path.add(recording: take, mix: played)
            let (gain, delay) = path.coarse
            let echo = take.indices.map { $0 - delay >= 0 && $0 - delay < played.count ? Float(gain) * played[$0 - delay] : 0 }
            analysis = try TakeAnalysis(
                cleaned: take, echo: echo, loudspeakers: gain, sampleRate: rate, notes: notes, tracker: tracker,
                accompanied: accompanied)
        } else {
            analysis = try TakeAnalysis(
                samples: take, sampleRate: rate, notes: notes, mix: played, tracker: tracker, accompanied: accompanied)
        }
        var judge = analysis.judge(notes, options: options)
        analysis.feed(&judge) { _, _ in true }
        _ = judge.finish()
        return Outcome(notes: notes, planted: performance.planted, results: judge.results, frames: analysis.frames, gate: analysis.gate)
    }
}

/// How well verdicts match planted mistakes: how many mistakes got the right verdict (recall), how many of the
/// flagged notes were planted (precision), and how many notes sung in the right octave were called `octave`.
public struct Tally: CustomStringConvertible, Sendable {
    public var planted = 0, caught = 0, flagged = 0, flaggedPlanted = 0, falseOctaves = 0
    /// Entrances planted early or late, and how many were called so; notes sung in time (planted nothing, or a
    /// mistake of pitch), and how many of them were called early, late, rushed or dragged.
    public var timingPlanted = 0, timingCaught = 0, inTime = 0, falseTiming = 0
    public var confusions: [String: Int] = [:]

    public init() {}

    public var recall: Double { Double(caught) / Double(max(1, planted)) }
    public var precision: Double { Double(flaggedPlanted) / Double(max(1, flagged)) }
    /// The share of planted early and late entrances called so.
    public var timingRecall: Double { Double(timingCaught) / Double(max(1, timingPlanted)) }
    /// The share of notes sung in time that were called early, late, rushed or dragged.
    public var falseTimingRate: Double { Double(falseTiming) / Double(max(1, inTime)) }

    public mutating func add(_ outcome: PlantedTake.Outcome) {
        for result in outcome.results {
            let mistake = outcome.planted[result.note.index]
            if mistake?.isTiming == true {
                timingPlanted += 1
                if result.verdict == mistake?.verdict { timingCaught += 1 }
            } else if mistake != .missing {
                inTime += 1
                if result.verdict.isTiming { falseTiming += 1 }
            }
            if let mistake {
                planted += 1
                if result.verdict == mistake.verdict {
                    caught += 1
                } else {
                    confusions["\(mistake.rawValue)→\(result.verdict.rawValue)", default: 0] += 1
                }
            }
            if result.verdict == .octave && mistake != .octave { falseOctaves += 1 }
            if result.verdict != .correct {
                flagged += 1
                if mistake != nil { flaggedPlanted += 1 } else { confusions["none→\(result.verdict.rawValue)", default: 0] += 1 }
            }
        }
    }

    public var description: String {
        let misses = confusions.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        return String(
            format:
                "planted %d, right verdict %d (%.1f%%); flagged %d, planted among them %d (%.1f%%); octave on the right octave %d; "
                + "early or late planted %d, found %d (%.1f%%); in time %d, called otherwise %d (%.1f%%)",
            planted, caught, 100 * recall, flagged, flaggedPlanted, 100 * precision, falseOctaves, timingPlanted, timingCaught,
            100 * timingRecall, inTime, falseTiming, 100 * falseTimingRate)
            + (misses.isEmpty ? "" : "; misses: " + misses)
    }
}

extension PlantedTake {
    /// Every performance the judge is measured on, each in its set. The sets share no voice and no seed: choir's
    /// own synthetic singer and the second design each sing other lines with other seeds in the checking set; the
    /// real voice's isolated notes are split between the sets recording by recording, and the real phrases and
    /// parts take turns, each in one set. Real recordings added to `../shared/voices` under the same names join in.
    public static func catalogue(_ set: Set) throws -> [PlantedTake] {
        let tuning = set == .tuning
        var takes: [PlantedTake] = []
        let ownLines =
            tuning
            ? [
                ("Resources/ExamplePieces/amazing_grace.musicxml", "tenor"), ("Tests/Fixtures/corpus/bach_bwv1.6.mxl", "alto"),
                ("Tests/Fixtures/corpus/bach_bwv1.6.mxl", "bass"), ("Tests/Fixtures/corpus/bach_bwv267.mxl", "soprano"),
            ]
            : [
                ("Tests/Fixtures/corpus/bach_bwv158.4.mxl", "tenor"), ("Tests/Fixtures/corpus/bach_bwv331.mxl", "alto"),
                ("Tests/Fixtures/corpus/bach_bwv411.mxl", "soprano"),
            ]
        for (file, part) in ownLines {
            for seed: UInt64 in tuning ? [1, 2, 3] : [4, 5, 6] {
                takes.append(
                    PlantedTake(
                        name: "synthetic \(part) \(file.split(separator: "/").last!) #\(seed)", set: set, score: try score(file),
                        part: part, singer: SyntheticSinger(sampleRate: 16000, seed: seed)))
            }
        }
        let choristerLines =
            tuning
            ? [("Resources/ExamplePieces/amazing_grace.musicxml", "soprano"), ("Tests/Fixtures/corpus/bach_bwv250.mxl", "bass")]
            : [
                ("Tests/Fixtures/corpus/bach_bwv86.6.mxl", "alto"), ("Tests/Fixtures/corpus/bach_bwv315.mxl", "tenor"),
                ("Tests/Fixtures/corpus/bach_bwv381.mxl", "soprano"), ("Tests/Fixtures/corpus/bach_bwv428.mxl", "bass"),
            ]
        for (index, (file, part)) in choristerLines.enumerated() {
            let seed = UInt64(index) + (tuning ? 1 : 11)
            takes.append(
                PlantedTake(
                    name: "chorister \(part) \(file.split(separator: "/").last!) #\(seed)", set: set, score: try score(file),
                    part: part, singer: SyntheticChorister(sampleRate: 16000, seed: seed)))
        }
        // The real voice's notes, every other recording to each set; the bent, unstable and broken ones left out.
        let recordings = RealVoices.takes(startingWith: "vocobox_").filter {
            !$0.contains("instable") && !$0.contains("bended") && !$0.contains("ko")
        }
        let half = recordings.enumerated().filter { ($0.offset % 2 == 0) == tuning }.map(\.element)
        let noteLines =
            tuning
            ? ["Tests/Fixtures/corpus/bach_bwv12.7.mxl", "Tests/Fixtures/corpus/bach_bwv178.7.mxl"]
            : [
                "Tests/Fixtures/corpus/bach_bwv14.5.mxl", "Tests/Fixtures/corpus/bach_bwv349.mxl",
                "Tests/Fixtures/corpus/bach_bwv158.4.mxl",
            ]
        for (index, file) in noteLines.enumerated() {
            let seed = UInt64(index) + (tuning ? 1 : 21)
            takes.append(
                PlantedTake(
                    name: "real notes bass \(file.split(separator: "/").last!) #\(seed)", set: set, score: try score(file),
                    part: "bass", singer: try NoteSinger(takes: half, seed: seed)))
        }
        // The real phrases and parts (vocadito's, sms-tools', the Dagstuhl quartet's), every other one to each set.
        let phrases = ["vocadito_", "sms_", "dcs_"].flatMap { prefix in
            RealVoices.takes(startingWith: prefix).enumerated().filter { ($0.offset % 2 == 0) == tuning }.map(\.element)
        }
        for phrase in phrases {
            for seed: UInt64 in tuning ? [1, 2, 3] : [31, 32, 33, 34] {
                let singer = try PhraseSinger(take: phrase, seed: seed)
                guard !singer.parts[0].notes.isEmpty else { break }
                let score = try ScoreReader.read(data: Array(singer.score.utf8), file: "\(phrase).musicxml")
                takes.append(PlantedTake(name: "real phrase \(phrase) #\(seed)", set: set, score: score, part: "Voice", singer: singer))
            }
        }
        return takes
    }
}
