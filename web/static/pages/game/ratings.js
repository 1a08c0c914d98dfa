// ratings.js shows the players' ratings on a game page: each account's
// rating in the game's pool, "?" while it is provisional, and once a rated
// game is over what it changed ("+12", "−9"), read from the profiles'
// rating histories (docs/api.md, "Ratings").

import { pools, profile, ratingText } from "../../account.js";
import { formatNumber } from "../../i18n.js";

// tries and wait bound how long a finished rated game's change is looked
// for: the game is rated just after it ends.
const tries = 6;
const wait = 1000;

export class SeatRatings {
  // id is the game's; redraw is called when a rating arrives.
  constructor(id, redraw) {
    this.id = id;
    this.redraw = redraw;
    this.names = []; // the account of each seat, or ""
    this.shown = {}; // account name -> text
    this.asked = ""; // what the ratings were asked for
    this.after = false; // the changes of the finished game were asked for
  }

  // follow reads the ratings of the seats of st, once, and once more when a
  // rated game is over.
  follow(st) {
    this.names = st.seats.map((s) => (s.kind === "human" && s.account && s.name ? s.name : ""));
    const key = st.spec + "|" + this.names.join(",");
    if (key !== this.asked) {
      this.asked = key;
      this.load(st.spec, false);
    }
    if (st.rated && st.status !== "playing" && !this.after) {
      this.after = true;
      this.load(st.spec, true);
    }
  }

  async load(spec, after) {
    let pool;
    try {
      pool = (await pools()).find((p) => p.spec === spec);
    } catch {
      return;
    }
    if (!pool) return;
    for (const name of new Set(this.names.filter(Boolean))) this.loadOne(name, pool.pool, after, 0);
  }

  async loadOne(name, pool, after, attempt) {
    let p;
    try {
      p = await profile(name);
    } catch {
      return;
    }
    const r = (p.ratings || []).find((x) => x.pool === pool) || { rating: 1500, provisional: true, history: [] };
    let text = ratingText(r);
    if (after) {
      const hist = r.history || [];
      const i = hist.findIndex((x) => x.game === this.id);
      if (i < 0) {
        if (attempt + 1 < tries) setTimeout(() => this.loadOne(name, pool, after, attempt + 1), wait);
      } else {
        const d = Math.round(hist[i].rating - (i > 0 ? hist[i - 1].rating : 1500));
        text = ratingText({ rating: hist[i].rating, provisional: r.provisional }) + " " + (d > 0 ? "+" : d < 0 ? "−" : "±") + formatNumber(Math.abs(d));
      }
    }
    if (this.shown[name] === text) return;
    this.shown[name] = text;
    this.redraw();
  }

  // text returns what is shown of seat i's rating, or "".
  text(i) {
    const name = this.names[i];
    return (name && this.shown[name]) || "";
  }
}
