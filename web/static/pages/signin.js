// signin.js is the sign-up and sign-in page (/signup, /login) and the
// account settings page (/account): change the password, choose whether to
// accept rated games against bots, make and revoke personal API tokens,
// delete the account.

import { changePassword, createToken, deleteAccount, login, me, revokeToken, setRatedBots, signup, tokens } from "../account.js";
import { clear, h, navigate } from "../dom.js";
import { errorWords, t, timeAgo } from "../i18n.js";
import { botBadge } from "../players.js";

// signinPage draws the form; creating says whether it signs up.
export function signinPage(root, creating) {
  const page = t(creating ? "account.signUp" : "account.signIn");
  document.title = t("account.pageTitle", { page });
  const name = h("input", { type: "text", id: "acct-name", autocomplete: "username", required: true, maxlength: 20, "data-testid": "acct-name" });
  const password = h("input", { type: "password", id: "acct-password", autocomplete: creating ? "new-password" : "current-password", required: true, maxlength: 256, "data-testid": "acct-password" });
  const err = h("p", { class: "error", role: "alert", "data-testid": "acct-error" });
  const submit = h("button", { type: "submit", class: "primary", "data-testid": "acct-submit" }, page);
  const form = h(
    "form",
    { class: "account-form" },
    h("p", {}, h("label", { for: "acct-name" }, t("account.name")), name),
    creating ? h("p", { class: "small muted" }, t("account.nameRule")) : null,
    h("p", {}, h("label", { for: "acct-password" }, t("account.password")), password),
    creating ? h("p", { class: "small muted" }, t("account.passwordRule")) : null,
    submit,
    err,
  );
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    err.textContent = "";
    submit.disabled = true;
    try {
      await (creating ? signup : login)(name.value.trim(), password.value);
      navigate("/");
    } catch (e) {
      err.textContent = errorWords(e);
    } finally {
      submit.disabled = false;
    }
  });
  root.append(
    h("h1", {}, page),
    h("p", {}, t(creating ? "account.why" : "account.welcome"), " ",
      creating ? h("a", { href: "/login", "data-link": "" }, t("account.haveOne")) : h("a", { href: "/signup", "data-link": "" }, t("account.create")),
      ". ", t("account.guests")),
    form,
  );
}

// accountPage lets a signed-in player change the password, choose
// whether to accept rated games against bots, manage the API tokens or
// delete the account.
export function accountPage(root) {
  document.title = t("account.title");
  me().then((who) => {
    if (!who) {
      root.append(h("p", {}, h("a", { href: "/login", "data-link": "" }, t("account.signIn")), " ", t("account.toManage")));
      return;
    }
    const old = h("input", { type: "password", id: "pw-old", autocomplete: "current-password" });
    const neu = h("input", { type: "password", id: "pw-new", autocomplete: "new-password" });
    const msg = h("p", { role: "status" });
    const change = h("form", { class: "account-form" },
      h("h2", {}, t("account.changeHeading")),
      h("p", {}, h("label", { for: "pw-old" }, t("account.current")), old),
      h("p", {}, h("label", { for: "pw-new" }, t("account.new")), neu),
      h("button", { type: "submit", class: "primary" }, t("account.change")), msg);
    change.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      try {
        await changePassword(old.value, neu.value);
        msg.textContent = t("account.changed");
      } catch (e) {
        msg.textContent = errorWords(e);
      }
    });
    const pw = h("input", { type: "password", id: "pw-delete", autocomplete: "current-password" });
    const dmsg = h("p", { role: "status" });
    const del = h("form", { class: "account-form" },
      h("h2", {}, t("account.deleteHeading")),
      h("p", { class: "small" }, t("account.deleteNote")),
      h("p", {}, h("label", { for: "pw-delete" }, t("account.password")), pw),
      h("button", { type: "submit", class: "danger" }, t("account.delete")), dmsg);
    del.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      try {
        await deleteAccount(pw.value);
        navigate("/");
      } catch (e) {
        dmsg.textContent = errorWords(e);
      }
    });
    root.append(h("h1", {}, who.name, who.bot ? botBadge() : null), change, botSection(who), tokensSection(), del);
  });
}

// botSection says that a bot account plays through the bot API; for a
// person, it is the choice of accepting rated games against bots.
function botSection(who) {
  if (who.bot) {
    return h("section", { class: "account-form", "data-testid": "bot-note" }, h("h2", {}, t("account.botHeading")), h("p", { class: "small" }, t("account.botNote")));
  }
  const box = h("input", { type: "checkbox", id: "pref-rated-bots", checked: who.ratedBots !== false, "data-testid": "pref-rated-bots" });
  const msg = h("p", { role: "status", class: "small" });
  box.addEventListener("change", async () => {
    msg.textContent = "";
    try {
      box.checked = await setRatedBots(box.checked);
      msg.textContent = t("account.saved");
    } catch (e) {
      box.checked = !box.checked;
      msg.textContent = errorWords(e);
    }
  });
  return h("section", { class: "account-form" },
    h("h2", {}, t("account.botsHeading")),
    h("p", { class: "check" }, box, " ", h("label", { for: "pref-rated-bots", class: "inline" }, t("account.ratedBots"))),
    h("p", { class: "small muted" }, t("account.ratedBotsNote")),
    msg);
}

// SCOPES are the scopes of a token, in the order the server lists them;
// a new token has the checked ones unless the player changes them.
const SCOPES = [
  { scope: "read", checked: true },
  { scope: "play", checked: true },
  { scope: "challenge", checked: false },
  { scope: "bot", checked: false },
];

// tokensSection lists the player's API tokens, each with its revocation
// (confirmed first), and makes new ones: the secret of a new one is shown
// once, with a button that copies it.
function tokensSection() {
  const list = h("ul", { class: "tokens", "data-testid": "tokens" });
  const msg = h("p", { role: "status", class: "small", "data-testid": "tokens-status" });
  const secretBox = h("div", { class: "token-secret", hidden: true, "data-testid": "token-secret-box" });

  const scopeWords = (sc) => sc.map((x) => t("account.scope." + x)).join(", ");
  function row(tok) {
    const confirm = h("span", { class: "token-confirm", hidden: true },
      t("account.tokenRevokeConfirm"), " ",
      h("button", { type: "button", class: "danger small", "data-testid": "token-revoke-yes-" + tok.id, onclick: async () => {
        try {
          await revokeToken(tok.id);
          msg.textContent = t("account.tokenRevoked");
          draw();
        } catch (e) {
          msg.textContent = errorWords(e);
        }
      } }, t("account.tokenRevokeYes")), " ",
      h("button", { type: "button", class: "secondary small", onclick: () => { confirm.hidden = true; revoke.hidden = false; } }, t("account.tokenRevokeNo")));
    const revoke = h("button", { type: "button", class: "secondary small", "data-testid": "token-revoke-" + tok.id,
      onclick: () => { revoke.hidden = true; confirm.hidden = false; } }, t("account.tokenRevoke"));
    return h("li", { "data-testid": "token-" + tok.id },
      h("strong", {}, tok.description || t("account.tokenNoDescription")), " ",
      h("span", { class: "small" }, scopeWords(tok.scopes)), h("br"),
      h("span", { class: "small muted" }, t("account.tokenCreated", { when: timeAgo(tok.created) }), " · ",
        tok.used ? t("account.tokenUsed", { when: timeAgo(tok.used) }) : t("account.tokenNeverUsed")), " ",
      revoke, confirm);
  }
  function draw() {
    tokens().then((ts) => {
      clear(list);
      if (!ts.length) list.append(h("li", { class: "muted" }, t("account.noTokens")));
      for (const tok of ts) list.append(row(tok));
    }, (e) => {
      msg.textContent = errorWords(e);
    });
  }

  const description = h("input", { type: "text", id: "token-description", maxlength: 100, "data-testid": "token-description" });
  const boxes = SCOPES.map(({ scope, checked }) => {
    const id = "token-scope-" + scope;
    const box = h("input", { type: "checkbox", id, value: scope, checked, "data-testid": id });
    return { box, line: h("p", { class: "check" }, box, " ", h("label", { for: id, class: "inline" }, t("account.scope." + scope)), " ",
      h("span", { class: "small muted" }, t("account.scopeNote." + scope))) };
  });
  const form = h("form", { class: "account-form", "data-testid": "token-form" },
    h("p", {}, h("label", { for: "token-description" }, t("account.tokenDescription")), description),
    h("fieldset", {}, h("legend", {}, t("account.tokenScopes")), ...boxes.map((b) => b.line)),
    h("button", { type: "submit", class: "primary", "data-testid": "token-create" }, t("account.tokenCreate")));
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    msg.textContent = "";
    const scopes = boxes.filter((b) => b.box.checked).map((b) => b.box.value);
    try {
      const tok = await createToken(description.value.trim(), scopes);
      description.value = "";
      showSecret(tok.secret);
      draw();
    } catch (e) {
      msg.textContent = errorWords(e);
    }
  });
  function showSecret(secret) {
    const field = h("input", { type: "text", id: "token-secret", readonly: true, value: secret, "data-testid": "token-secret" });
    const copied = h("span", { role: "status", class: "small" });
    const copy = h("button", { type: "button", class: "secondary small", "data-testid": "token-copy", onclick: async () => {
      try {
        await navigator.clipboard.writeText(secret);
        copied.textContent = t("account.copied");
      } catch {
        field.select();
        copied.textContent = t("account.copyByHand");
      }
    } }, t("account.copy"));
    clear(secretBox).append(
      h("p", {}, h("label", { for: "token-secret" }, t("account.tokenSecret"))),
      h("p", { class: "check" }, field, " ", copy, " ", copied),
      h("p", { class: "small" }, t("account.tokenSecretNote")));
    secretBox.hidden = false;
    field.select();
  }

  draw();
  return h("section", { class: "tokens-section", "data-testid": "tokens-section" },
    h("h2", {}, t("account.tokensHeading")),
    h("p", { class: "small" }, t("account.tokensNote")),
    list, msg, secretBox, form);
}
