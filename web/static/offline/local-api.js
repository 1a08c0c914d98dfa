// local-api.js gives the analysis board the functions of api.js it uses,
// answered by the engine in the browser (engine.js) when it runs, and by
// the server otherwise: the board's analyses cost the server nothing and
// work offline. Where the server knows more than the browser (a game
// solved exactly, two-player proofs), its exact verdicts are added when it
// can be reached. Reviews, stored games and positions set up by hand stay
// the server's.

import * as server from "../api.js";
import { call, engineReady } from "./engine.js";

export { getGame, review, setupPosition } from "../api.js";

// localTime is the search time of a first local analysis, in ms, and
// deeperTime that of the analysis "deeper" asks for.
const localTime = 700;
const deeperTime = 5000;

// useLocal resolves to whether the engine runs here.
const useLocal = () => engineReady();

// listGames lists the server's games, or the engine's offline.
export async function listGames() {
  try {
    return await server.listGames();
  } catch (err) {
    if (!(await useLocal())) throw err;
    const gs = await call({ op: "games" });
    return gs.map((g) => ({ ...g, name: g.spec, options: [] }));
  }
}

// variant describes a variant, from the engine when it runs.
export async function variant(spec) {
  if (await useLocal()) return call({ op: "variant", spec });
  return server.variant(spec);
}

// view returns the view of a position, or of the position a move leads
// to, from the engine when it runs.
export async function view(spec, position = "", move = "") {
  if (!(await useLocal())) return server.view(spec, position, move);
  const st = await call({ op: "state", spec, start: position || undefined, moves: move ? [move] : [] });
  return st.view;
}

// moreExact merges into a local analysis the server's verdicts that are
// exact (from a solved table or a proof), when the server can be reached;
// it returns the local analysis unchanged otherwise.
async function moreExact(req, local) {
  if (local.final) return local;
  let remote;
  try {
    remote = await server.analyze(req);
  } catch {
    return local;
  }
  if (!remote || remote.position !== local.position) return local;
  if (remote.exact) return { ...remote, local: false };
  const exact = new Map((remote.moves || []).filter((m) => m.exact).map((m) => [m.move, m]));
  if (!exact.size) return local;
  const moves = local.moves.map((m) => exact.get(m.move) || m);
  return { ...local, moves };
}

// askServer resolves to whether the server is worth asking for exact
// verdicts about spec: only online, and for the games it knows more of
// than the engine here (its variant offers levels the engine lacks, a
// solved table's). The answer is kept per variant.
const worth = new Map();
function askServer(spec) {
  if (!navigator.onLine) return Promise.resolve(false);
  if (!worth.has(spec)) {
    const p = Promise.all([call({ op: "variant", spec }), server.variant(spec)]).then(
      ([mine, theirs]) => (theirs.levels || []).some((l) => !(mine.levels || []).includes(l)),
      () => {
        worth.delete(spec);
        return false;
      },
    );
    worth.set(spec, p);
  }
  return worth.get(spec);
}

// analyze analyses a position ({spec, position, moves}) in the browser
// when the engine runs, adding the server's exact verdicts when it has
// some; a stored game's position ({game, ply}) is the server's.
export async function analyze(req) {
  if (req.game || !(await useLocal())) return server.analyze(req);
  const local = await call({ op: "analyze", spec: req.spec, start: req.position, moves: req.moves || [], ms: localTime });
  if (await askServer(req.spec)) return moreExact(req, local);
  return local;
}

// AnalysisSocket deepens analyses in the browser when the engine runs,
// with the messages of the server's /ws/analyze, and through the server
// otherwise.
export class AnalysisSocket {
  constructor(onMessage) {
    this.onMessage = onMessage;
    this.remote = null;
    this.seq = 0;
  }

  async start(req) {
    const my = ++this.seq;
    if (req.game || !(await useLocal())) {
      if (!this.remote) this.remote = new server.AnalysisSocket(this.onMessage);
      this.remote.start(req);
      return;
    }
    try {
      const a = await call({ op: "analyze", spec: req.spec, start: req.position, moves: req.moves || [], ms: deeperTime });
      if (my !== this.seq) return;
      this.onMessage({ type: "analysis", ...a });
    } catch (err) {
      if (my === this.seq) this.onMessage({ type: "error", code: err.code });
    }
    if (my === this.seq) this.onMessage({ type: "done" });
  }

  stop() {
    this.seq++;
    if (this.remote) this.remote.stop();
  }

  close() {
    this.seq++;
    if (this.remote) this.remote.close();
  }
}
