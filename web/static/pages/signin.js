// signin.js is the sign-up and sign-in page (/signup, /login) and the
// account settings page (/account): change the password, delete the
// account.

import { changePassword, deleteAccount, login, me, signup } from "../account.js";
import { h, navigate } from "../dom.js";

// signinPage draws the form; creating says whether it signs up.
export function signinPage(root, creating) {
  document.title = (creating ? "Sign up" : "Sign in") + " – stax";
  const name = h("input", { type: "text", id: "acct-name", autocomplete: "username", required: true, maxlength: 20, "data-testid": "acct-name" });
  const password = h("input", { type: "password", id: "acct-password", autocomplete: creating ? "new-password" : "current-password", required: true, maxlength: 256, "data-testid": "acct-password" });
  const err = h("p", { class: "error", role: "alert", "data-testid": "acct-error" });
  const submit = h("button", { type: "submit", class: "primary", "data-testid": "acct-submit" }, creating ? "Sign up" : "Sign in");
  const form = h(
    "form",
    { class: "account-form" },
    h("p", {}, h("label", { for: "acct-name" }, "Name"), name),
    creating ? h("p", { class: "small muted" }, "3 to 20 letters, digits, _ or -.") : null,
    h("p", {}, h("label", { for: "acct-password" }, "Password"), password),
    creating ? h("p", { class: "small muted" }, "At least 8 characters.") : null,
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
      err.textContent = e.message;
    } finally {
      submit.disabled = false;
    }
  });
  root.append(
    h("h1", {}, creating ? "Sign up" : "Sign in"),
    h("p", {}, creating ? "An account keeps your games on every device, lets you seek opponents in the lobby and gives you a rating. " : "Welcome back. ",
      creating ? h("a", { href: "/login", "data-link": "" }, "I have an account") : h("a", { href: "/signup", "data-link": "" }, "Create an account"),
      ". Guests can still play without one."),
    form,
  );
}

// accountPage lets a signed-in player change the password or delete the
// account.
export function accountPage(root) {
  document.title = "Account – stax";
  me().then((who) => {
    if (!who) {
      root.append(h("p", {}, h("a", { href: "/login", "data-link": "" }, "Sign in"), " to manage your account."));
      return;
    }
    const old = h("input", { type: "password", id: "pw-old", autocomplete: "current-password" });
    const neu = h("input", { type: "password", id: "pw-new", autocomplete: "new-password" });
    const msg = h("p", { role: "status" });
    const change = h("form", { class: "account-form" },
      h("h2", {}, "Change the password"),
      h("p", {}, h("label", { for: "pw-old" }, "Current password"), old),
      h("p", {}, h("label", { for: "pw-new" }, "New password"), neu),
      h("button", { type: "submit", class: "primary" }, "Change"), msg);
    change.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      try {
        await changePassword(old.value, neu.value);
        msg.textContent = "Changed. Your other devices are signed out.";
      } catch (e) {
        msg.textContent = e.message;
      }
    });
    const pw = h("input", { type: "password", id: "pw-delete", autocomplete: "current-password" });
    const dmsg = h("p", { role: "status" });
    const del = h("form", { class: "account-form" },
      h("h2", {}, "Delete the account"),
      h("p", { class: "small" }, "Your games stay, under the name “(deleted player)”; your ratings go."),
      h("p", {}, h("label", { for: "pw-delete" }, "Password"), pw),
      h("button", { type: "submit", class: "danger" }, "Delete my account"), dmsg);
    del.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      try {
        await deleteAccount(pw.value);
        navigate("/");
      } catch (e) {
        dmsg.textContent = e.message;
      }
    });
    root.append(h("h1", {}, who.name), change, del);
  });
}
