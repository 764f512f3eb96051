// Arbiter dashboard: self-custodial wallets over EIP-1193 (window.ethereum). Connects the browser wallet with
// Sign-In with Ethereum, and has it sign and send the exact transaction of a held proposal. The server checks
// everything (the SIWE message it issued, the transaction on chain); this script only carries messages.
const csrf = document.querySelector('meta[name="csrf-token"]')?.content ?? "";

async function post(url, body) {
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json", "x-csrf-token": csrf }, body: JSON.stringify(body ?? {}) });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(data.message || data.error || `request failed (${res.status})`);
  return data;
}

function wallet() {
  const eth = window.ethereum;
  if (!eth || typeof eth.request !== "function") throw new Error("no browser wallet was found; install or unlock a wallet extension, then reload this page");
  return eth;
}

const utf8Hex = (s) => `0x${[...new TextEncoder().encode(s)].map((b) => b.toString(16).padStart(2, "0")).join("")}`;

function say(el, text, bad) {
  if (!el) return;
  el.textContent = text;
  el.className = bad ? "help check-result bad" : "help";
}

// Connect: eth_requestAccounts -> server-issued SIWE message -> personal_sign -> server verifies and creates.
const connectForm = document.querySelector("form[data-embedded-connect]");
if (connectForm) {
  const status = connectForm.querySelector("[data-embedded-status]");
  say(status, window.ethereum ? "" : "No browser wallet was found in this browser.", !window.ethereum);
  connectForm.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const button = connectForm.querySelector("button[type=submit]");
    button.disabled = true;
    try {
      const eth = wallet();
      say(status, "Asking your wallet for its account…");
      const [address] = await eth.request({ method: "eth_requestAccounts" });
      if (!address) throw new Error("the wallet shared no account");
      const { message } = await post("/dashboard/api/embedded/challenge", { address });
      say(status, "Sign the message in your wallet (no transaction, no fee)…");
      const signature = await eth.request({ method: "personal_sign", params: [utf8Hex(message), address] });
      const form = new FormData(connectForm);
      const fields = {};
      for (const k of ["name", "mandate", "maxPerTxUsd", "dailyCapUsd", "tokenAllowlist", "recipientAllowlist"]) fields[k] = String(form.get(k) ?? "");
      say(status, "Checking the signature…");
      const created = await post("/dashboard/api/embedded/wallets", { ...fields, message, signature });
      location.assign(created.url);
    } catch (err) {
      say(status, `Not connected: ${err?.message ?? err}`, true);
      button.disabled = false;
    }
  });
}

/** The server may not see a just-sent transaction at once: retry a few times. */
async function submit(id, hash) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await post(`/dashboard/api/embedded/proposals/${encodeURIComponent(id)}/submit`, { txHash: hash });
    } catch (err) {
      if (attempt >= 4 || !/does not know this transaction yet/.test(String(err?.message))) throw err;
      await new Promise((r) => setTimeout(r, 2000));
    }
  }
}

const sentKey = (id) => `arbiter-embedded-sent:${id}`;

// Confirm: server re-checks and returns the exact transaction -> eth_sendTransaction -> server verifies the hash.
for (const btn of document.querySelectorAll("[data-embedded-send]")) {
  const id = btn.getAttribute("data-embedded-send");
  const expected = (btn.getAttribute("data-wallet") ?? "").toLowerCase();
  const status = [...document.querySelectorAll("[data-embedded-status]")].find((el) => el.getAttribute("data-embedded-status") === id);
  // A transaction sent before the page closed is recorded when the page opens again.
  let pending = null;
  try {
    pending = sessionStorage.getItem(sentKey(id));
  } catch {
    pending = null;
  }
  if (pending) {
    say(status, `Recording the transaction sent earlier (${pending})…`);
    submit(id, pending)
      .then((done) => {
        sessionStorage.removeItem(sentKey(id));
        location.assign(done.url);
      })
      .catch((err) => say(status, `The transaction sent earlier was not recorded: ${err?.message ?? err}`, true));
  }
  btn.addEventListener("click", async () => {
    btn.disabled = true;
    try {
      const eth = wallet();
      const [account] = await eth.request({ method: "eth_requestAccounts" });
      if (!account || account.toLowerCase() !== expected) throw new Error(`switch your wallet to the account ${btn.getAttribute("data-wallet")} and try again`);
      say(status, "Re-checking the proposal…");
      const prepared = await post(`/dashboard/api/embedded/proposals/${encodeURIComponent(id)}/prepare`);
      if (prepared.status !== "ready") {
        location.reload();
        return;
      }
      const tx = prepared.transaction;
      const chainId = await eth.request({ method: "eth_chainId" });
      if (BigInt(chainId) !== BigInt(tx.chainId)) await eth.request({ method: "wallet_switchEthereumChain", params: [{ chainId: tx.chainId }] });
      say(status, "Confirm the transaction in your wallet…");
      const hash = await eth.request({ method: "eth_sendTransaction", params: [{ from: tx.from, to: tx.to, value: tx.value, data: tx.data, chainId: tx.chainId }] });
      try {
        sessionStorage.setItem(sentKey(id), hash);
      } catch {
        // private mode: the hash form below still works
      }
      say(status, `Sent (${hash}). Checking it on chain…`);
      const done = await submit(id, hash);
      try {
        sessionStorage.removeItem(sentKey(id));
      } catch {
        // nothing stored
      }
      location.assign(done.url);
    } catch (err) {
      say(status, `Not sent: ${err?.message ?? err}`, true);
      btn.disabled = false;
    }
  });
}
