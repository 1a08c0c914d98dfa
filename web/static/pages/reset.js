// reset.js is the page of a password reset link (/reset#<token>), which an
// operator makes with stax admin reset-password: it sets a new password
// once, and the account is signed out everywhere.

import { resetPassword } from "../account.js";
import { h } from "../dom.js";
import { errorWords, t } from "../i18n.js";

// resetPage draws the form; the token is the address's fragment, which no
// server log sees.
export function resetPage(root) {
  document.title = t("account.resetTitle");
  const token = location.hash.replace(/^#/, "");
  root.append(h("h1", {}, t("account.resetHeading")));
  if (!token) {
    root.append(h("p", { class: "error", role: "alert", "data-testid": "reset-error" }, t("account.resetMissing")));
    return;
  }
  const password = h("input", { type: "password", id: "reset-password", autocomplete: "new-password", required: true, maxlength: 256, "data-testid": "reset-password" });
  const msg = h("p", { role: "status", "data-testid": "reset-status" });
  const submit = h("button", { type: "submit", class: "primary", "data-testid": "reset-submit" }, t("account.change"));
  const form = h("form", { class: "account-form" },
    h("p", { class: "small muted" }, t("account.resetNote")),
    h("p", {}, h("label", { for: "reset-password" }, t("account.new")), password),
    h("p", { class: "small muted" }, t("account.passwordRule")),
    submit, msg);
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    msg.textContent = "";
    submit.disabled = true;
    try {
      await resetPassword(token, password.value);
      form.replaceChildren(h("p", { role: "status", "data-testid": "reset-status" }, t("account.resetDone"), " ",
        h("a", { href: "/login", "data-link": "" }, t("account.signIn"))));
    } catch (e) {
      msg.textContent = errorWords(e);
      submit.disabled = false;
    }
  });
  root.append(form);
}
