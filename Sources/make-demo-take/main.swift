// Writes the bundled demo take: the synthetic singer on the example's tenor line, with a few planted
// mistakes, as the microphone for `just demo` when there is no sound card. Run with `just demo-take`.
import ChoirAudio
import ChoirPlayback
import ChoirPractice
import ChoirScore
import ChoirTestSupport
import Glibc

let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    print("usage: make-demo-take SCORE OUT.wav")
    exit(2)
}
let score = try ScoreReader.read(contentsOf: arguments[1])
let singer = try LineSelector.select("tenor", from: score.lines)
var options = PlaybackOptions()
options.singer = singer
let schedule = try Schedule(score: score, lines: score.lines, options: options)
let notes = ExpectedNote.notes(of: singer, in: schedule, score: score)
var performer = SyntheticSinger(sampleRate: 16000, seed: 2026)
performer.mistakeShare = 0.12
// No octave: sung an octave down, a tenor's note lies in the bass's range, and the tests judge the demo against both.
let planted = performer.plan(notes, kinds: [.flat, .sharp, .wrong, .missing, .early, .late])
let take = performer.sing(notes, mistakes: planted, length: schedule.length + 1).samples
let writer = try AudioFile.Writer(path: arguments[2], sampleRate: 16000)
try take.withUnsafeBufferPointer { try writer.append(interleaved: $0) }
try writer.finish()
for (index, mistake) in planted.sorted(by: { $0.key < $1.key }) {
    print("note \(index) (measure \(notes[index].measure)): \(mistake.rawValue)")
}
