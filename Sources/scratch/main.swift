import ChoirAudio
import ChoirPlayback
import ChoirPractice
import ChoirScore
import ChoirTestSupport
let score = try ScoreReader.read(contentsOf: "Resources/ExamplePieces/amazing_grace.musicxml")
var options = PlaybackOptions()
options.singer = try LineSelector.select("tenor", from: score.lines)
let schedule = try Schedule(score: score, lines: score.lines, options: options)
let notes = ExpectedNote.notes(of: options.singer!, in: schedule, score: score)
let take = SyntheticSinger(sampleRate: 16000, seed: 11).sing(notes, mistakes: [3: .missing, 9: .flat, 13: .missing, 18: .wrong, 24: .missing], length: schedule.length + 1)
let writer = try WAVWriter(path: "/tmp/pa/take.wav", channels: 1, sampleRate: 16000)
try take.samples.withUnsafeBufferPointer { try writer.append(interleaved: $0) }
try writer.finish()
