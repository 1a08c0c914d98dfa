// signin.js is the sign-up and sign-in page (/signup, /login) and the
// account settings page (/account): change the password, delete the
// account.

import { changePassword, deleteAccount, login, me, signup } from "../account.js";
import { h, navigate } from "../dom.js";
import { errorWords, t } from "../i18n.js";

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

// accountPage lets a signed-in player change the password or delete the
// account.
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
    root.append(h("h1", {}, who.name), change, del);
  });
}
