// sound.js plays the sounds of play, synthesised with the Web Audio API
// (no audio files): a move, your turn, low time. They are off unless the
// visitor turns them on with the switch in the header; the choice is
// remembered on this device.

import { load, save } from "./storage.js";

const KEY = "stax.sound";

// TONES gives each sound its notes: frequency in Hz, start and length in
// seconds, the wave and the loudness.
const TONES = {
  move: [{ f: 220, at: 0, len: 0.07, wave: "triangle", gain: 0.35 }],
  turn: [
    { f: 660, at: 0, len: 0.09, wave: "sine", gain: 0.25 },
    { f: 880, at: 0.1, len: 0.12, wave: "sine", gain: 0.25 },
  ],
  low: [
    { f: 990, at: 0, len: 0.06, wave: "square", gain: 0.12 },
    { f: 990, at: 0.12, len: 0.06, wave: "square", gain: 0.12 },
  ],
};

// played counts the sounds played, by name, for the curious and the tests.
export const played = { move: 0, turn: 0, low: 0 };

let context = null;

// soundOn reports whether the visitor turned the sounds on.
export const soundOn = () => load(KEY) === "on";

// setSound turns the sounds on or off and remembers it. Turning them on
// happens on a click, which lets the browser start the audio.
export function setSound(on) {
  save(KEY, on ? "on" : "off"); // without storage, not remembered
  if (on) audio();
}

// audio returns the audio context, made on first use, or null when the
// browser has none.
function audio() {
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (!Ctx) return null;
  if (!context) context = new Ctx();
  if (context.state === "suspended") context.resume().catch(() => {});
  return context;
}

// play plays the sound name ("move", "turn" or "low") if the sounds are on.
export function play(name) {
  const tones = TONES[name];
  if (!tones || !soundOn()) return;
  const ctx = audio();
  if (!ctx) return;
  played[name]++;
  const now = ctx.currentTime;
  for (const n of tones) {
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.type = n.wave;
    osc.frequency.value = n.f;
    // A short attack and an exponential fall, so that notes do not click.
    gain.gain.setValueAtTime(0.0001, now + n.at);
    gain.gain.exponentialRampToValueAtTime(n.gain, now + n.at + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + n.at + n.len);
    osc.connect(gain).connect(ctx.destination);
    osc.start(now + n.at);
    osc.stop(now + n.at + n.len + 0.02);
  }
}
