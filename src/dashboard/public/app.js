// Arbiter dashboard: small progressive enhancements. Every page works without this file.
const csrf = document.querySelector('meta[name="csrf-token"]')?.content ?? "";

// Copy buttons.
document.addEventListener("click", async (ev) => {
  const btn = ev.target instanceof Element ? ev.target.closest("[data-copy]") : null;
  if (!btn) return;
  const value = btn.getAttribute("data-copy") ?? "";
  let ok = false;
  try {
    await navigator.clipboard.writeText(value);
    ok = true;
  } catch {
    const ta = document.createElement("textarea");
    ta.value = value;
    document.body.append(ta);
    ta.select();
    ok = document.execCommand("copy");
    ta.remove();
  }
  const old = btn.textContent;
  btn.textContent = ok ? "Copied" : "Copy failed";
  setTimeout(() => (btn.textContent = old), 1500);
});

// Confirmation before destructive forms; then one submission only (no double confirm or double withdraw).
document.addEventListener("submit", (ev) => {
  const form = ev.target;
  if (!(form instanceof HTMLFormElement)) return;
  const question = form.getAttribute("data-confirm");
  if (question && !window.confirm(question)) {
    ev.preventDefault();
    return;
  }
  if (form.method.toLowerCase() === "post") {
    for (const b of form.querySelectorAll("button[type=submit]")) {
      setTimeout(() => {
        b.disabled = true;
        b.setAttribute("aria-busy", "true");
      });
    }
  }
});

// Times in the viewer's time zone.
const fmt = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });
for (const t of document.querySelectorAll("time[datetime]:not([data-countdown])")) {
  const d = new Date(t.getAttribute("datetime"));
  if (!Number.isNaN(d.getTime())) t.textContent = fmt.format(d);
}

// Expiry countdowns on held proposals.
const countdowns = [...document.querySelectorAll("[data-countdown]")];
function tick() {
  const now = Date.now();
  for (const el of countdowns) {
    const ms = new Date(el.getAttribute("data-countdown")).getTime() - now;
    if (ms <= 0) {
      el.textContent = "now (expired)";
      continue;
    }
    const s = Math.floor(ms / 1000);
    const h = Math.floor(s / 3600);
    const m = Math.floor((s % 3600) / 60);
    const sec = String(s % 60).padStart(2, "0");
    el.textContent = h ? `in ${h} h ${String(m).padStart(2, "0")} min` : `in ${m}:${sec}`;
  }
}
if (countdowns.length) {
  tick();
  setInterval(tick, 1000);
}

// Receipt check, in the browser: the same code as `npm run cli -- receipt verify`, bundled from
// src/receipts/verify.ts. When the bundle cannot load, the server runs the same check.
for (const btn of document.querySelectorAll("[data-verify-receipt]")) {
  btn.addEventListener("click", async () => {
    const out = document.getElementById("receipt-result");
    const id = btn.getAttribute("data-verify-receipt");
    out.className = "check-result";
    out.textContent = "Checking…";
    try {
      const res = await fetch(`/dashboard/api/verifications/${encodeURIComponent(id)}/transcript`, { headers: { "x-csrf-token": csrf } });
      if (!res.ok) throw new Error(`could not load the transcript (${res.status})`);
      const doc = await res.json();
      let result;
      let where = "in your browser";
      let lib = null;
      try {
        lib = await import("/dashboard/assets/receipt.js");
      } catch {
        lib = null;
      }
      if (lib) {
        result = await lib.verifyReceipt(doc.receipt, doc.transcript, { verdict: doc.verdict, reasoning: doc.reasoning }, { expectedJudge: btn.getAttribute("data-expected-judge") });
      } else {
        where = "on the server";
        result = await (await fetch(`/dashboard/api/verifications/${encodeURIComponent(id)}/receipt-check`)).json();
      }
      // The Merkle path to the anchored batch root (docs/receipts.md), when the receipt is in a batch.
      if (result.ok && doc.anchor && doc.anchor.root && lib && lib.checkInclusion) {
        const inc = lib.checkInclusion(doc.receipt, doc.anchor);
        if (inc.errors.length > 0) result = { ok: false, errors: inc.errors };
        else result.inclusion = `inclusion verified: leaf ${doc.anchor.leafIndex} of batch ${doc.anchor.batchId}`;
      }
      if (result.ok) {
        out.className = "check-result ok";
        out.textContent = `✓ Receipt verified ${where}: transcript root, output hash and the judge's signature all match${result.inclusion ? `; ${result.inclusion}` : ""}.`;
      } else {
        out.className = "check-result bad";
        out.textContent = `✗ Receipt does not verify (${where}): ${result.errors.join("; ")}`;
      }
    } catch (err) {
      out.className = "check-result bad";
      out.textContent = `The check could not run: ${err instanceof Error ? err.message : err}`;
    }
  });
}
