#!/usr/bin/env node
// Opens an HTML page in headless Chromium and fails when an image does not
// load or the page logs an error. It speaks the DevTools protocol over
// --remote-debugging-pipe (file descriptors 3 and 4, NUL-separated JSON),
// so it needs no npm package, no port and no WebSocket.
//
//   node check.mjs PAGE.html SCREENSHOT.png [--expect-images N] [--widths 1280,1920]
//
// Checks: the navigation succeeds; after the load event every <img> is
// complete with a non-zero natural size (and there are N when given); no
// request fails (Network.loadingFailed); no exception is thrown; nothing is
// logged at level error (console.error, or Chromium's own "Failed to load
// resource" and friends); and at each window width (default 1280 CSS
// pixels) the page is no wider than the window and no element sticks out of
// its parent (an element that scrolls on purpose, overflow auto or scroll,
// and what is inside it, aside). Writes a full-page PNG screenshot per
// width: SCREENSHOT itself for one width, SCREENSHOT with -<width> before
// .png for several. Exit status 0 when the page passes, 1 when it fails, 2
// on a usage error.
// CHROMIUM names the browser binary (default: chromium).
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const args = process.argv.slice(2);
let expectImages = -1;
let widths = [1280];
const pos = [];
for (let i = 0; i < args.length; i++) {
	if (args[i] === "--expect-images") expectImages = Number(args[++i]);
	else if (args[i] === "--widths") widths = String(args[++i]).split(",").map(Number);
	else pos.push(args[i]);
}
if (pos.length !== 2 || Number.isNaN(expectImages) || widths.some((w) => !(w >= 320))) {
	console.error("usage: node check.mjs PAGE.html SCREENSHOT.png [--expect-images N] [--widths 1280,1920]");
	process.exit(2);
}
const [pagePath, shotPath] = pos;
if (!existsSync(pagePath)) {
	console.error(`check.mjs: ${pagePath}: no such file`);
	process.exit(2);
}
const url = pathToFileURL(resolve(pagePath)).href;
const profile = mkdtempSync(join(tmpdir(), "schedsim-chromium-"));
const browser = spawn(process.env.CHROMIUM || "chromium", [
	"--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--hide-scrollbars",
	"--no-first-run", "--no-default-browser-check", "--disable-extensions", "--mute-audio",
	"--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-default-apps",
	"--metrics-recording-only", "--disable-breakpad", "--disable-crash-reporter",
	`--user-data-dir=${profile}`, "--remote-debugging-pipe", "about:blank",
], { stdio: ["ignore", "ignore", "pipe", "pipe", "pipe"], detached: true });

let stderr = "";
browser.stderr.on("data", (d) => { stderr += d; });
const problems = [];
let nextId = 1;
const pending = new Map();
const waiters = [];

function send(method, params = {}, sessionId) {
	const id = nextId++;
	const msg = { id, method, params };
	if (sessionId) msg.sessionId = sessionId;
	browser.stdio[3].write(JSON.stringify(msg) + "\0");
	return new Promise((ok, fail) => pending.set(id, { ok, fail, method }));
}

function waitEvent(method) {
	return new Promise((ok) => waiters.push({ method, ok }));
}

function onEvent(msg) {
	const p = msg.params || {};
	switch (msg.method) {
	case "Runtime.exceptionThrown":
		problems.push(`exception: ${p.exceptionDetails?.exception?.description || p.exceptionDetails?.text}`);
		break;
	case "Runtime.consoleAPICalled":
		if (p.type === "error" || p.type === "assert") {
			problems.push(`console.${p.type}: ${(p.args || []).map((a) => a.value ?? a.description).join(" ")}`);
		}
		break;
	case "Log.entryAdded":
		if (p.entry?.level === "error") problems.push(`log error (${p.entry.source}): ${p.entry.text} ${p.entry.url || ""}`);
		break;
	case "Network.loadingFailed":
		if (!p.canceled) problems.push(`request failed: ${p.errorText} (${p.type})`);
		break;
	}
	for (let i = 0; i < waiters.length; i++) {
		if (waiters[i].method === msg.method) {
			waiters.splice(i, 1)[0].ok(msg.params);
			i--;
		}
	}
}

let buf = Buffer.alloc(0);
browser.stdio[4].on("data", (chunk) => {
	buf = Buffer.concat([buf, chunk]);
	let end;
	while ((end = buf.indexOf(0)) >= 0) {
		const msg = JSON.parse(buf.subarray(0, end).toString("utf8"));
		buf = buf.subarray(end + 1);
		if (msg.id !== undefined && pending.has(msg.id)) {
			const { ok, fail, method } = pending.get(msg.id);
			pending.delete(msg.id);
			if (msg.error) fail(new Error(`${method}: ${msg.error.message}`));
			else ok(msg.result);
		} else if (msg.method) {
			onEvent(msg);
		}
	}
});

// finish stops the browser and every process it started (its own process
// group: detached above), waits for the browser to exit and only then removes
// the profile, which Chromium's helpers write to until they are gone.
let finishing = false;
function finish(code, message) {
	if (finishing) return; // the browser's exit after our own kill
	finishing = true;
	if (message) console.error(message);
	const cleanUp = () => {
		try { rmSync(profile, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 }); } catch { /* best effort */ }
		process.exit(code);
	};
	if (browser.exitCode !== null || browser.signalCode !== null) return cleanUp();
	browser.once("exit", () => setTimeout(cleanUp, 100));
	setTimeout(cleanUp, 5000).unref();
	try { process.kill(-browser.pid, "SIGKILL"); } catch { try { browser.kill("SIGKILL"); } catch { /* already gone */ } }
}

browser.on("error", (e) => finish(1, `check.mjs: cannot start ${process.env.CHROMIUM || "chromium"}: ${e.message}`));
browser.on("exit", (code) => {
	if (pending.size > 0) finish(1, `check.mjs: chromium exited (${code}) mid-check:\n${stderr.slice(-2000)}`);
});
const timer = setTimeout(() => finish(1, `check.mjs: timed out after 90 s\n${stderr.slice(-2000)}`), 90_000);

try {
	const { targetId } = await send("Target.createTarget", { url: "about:blank" });
	const { sessionId } = await send("Target.attachToTarget", { targetId, flatten: true });
	const s = (method, params) => send(method, params, sessionId);
	await Promise.all([s("Runtime.enable"), s("Log.enable"), s("Page.enable"), s("Network.enable")]);
	await s("Emulation.setDeviceMetricsOverride", { width: 1280, height: 900, deviceScaleFactor: 1, mobile: false });
	const loaded = waitEvent("Page.loadEventFired");
	const nav = await s("Page.navigate", { url });
	if (nav.errorText) problems.push(`navigation failed: ${nav.errorText}`);
	await loaded;
	const { result } = await s("Runtime.evaluate", {
		returnByValue: true,
		awaitPromise: true,
		expression: `(async () => {
			const imgs = [...document.images];
			await Promise.all(imgs.map((i) => i.decode().catch(() => {})));
			return { count: imgs.length, title: document.title,
				broken: imgs.filter((i) => !i.complete || i.naturalWidth === 0).map((i) => i.alt || i.src.slice(0, 60)) };
		})()`,
	});
	const info = result.value;
	for (const b of info.broken) problems.push(`image failed to load: ${b}`);
	if (expectImages >= 0 && info.count !== expectImages) problems.push(`${info.count} images, want ${expectImages}`);
	const shots = [];
	for (const width of widths) {
		await s("Emulation.setDeviceMetricsOverride", { width, height: 900, deviceScaleFactor: 1, mobile: false });
		const { result: over } = await s("Runtime.evaluate", {
			returnByValue: true,
			awaitPromise: true,
			expression: `(async () => {
				await new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok)));
				const root = document.documentElement, vw = root.clientWidth, bad = [];
				if (root.scrollWidth > vw + 1) bad.push("the page is " + root.scrollWidth + " px wide in a " + vw + " px window");
				const scrolls = (el) => ["auto", "scroll"].includes(getComputedStyle(el).overflowX);
				const name = (el) => el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") +
					(el.getAttribute("alt") ? "[" + el.getAttribute("alt").slice(0, 40) + "]" : "");
				for (const el of document.body.querySelectorAll("*")) {
					let inside = false;
					for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) inside = inside || scrolls(p);
					const parent = el.parentElement;
					if (inside || !parent || getComputedStyle(el).display === "none") continue;
					const r = el.getBoundingClientRect(), pr = parent.getBoundingClientRect();
					if (r.width === 0 || r.height === 0) continue;
					if (r.right > pr.right + 1 || r.left < pr.left - 1) {
						bad.push(name(el) + " sticks out of its " + name(parent) + " by " +
							Math.round(Math.max(r.right - pr.right, pr.left - r.left)) + " px");
					}
				}
				return bad.slice(0, 20);
			})()`,
		});
		for (const b of over.value) problems.push(`at ${width} px: ${b}`);
		const metrics = await s("Page.getLayoutMetrics");
		const size = metrics.cssContentSize || metrics.contentSize;
		const shot = await s("Page.captureScreenshot", {
			format: "png", captureBeyondViewport: true,
			clip: { x: 0, y: 0, width: Math.ceil(size.width), height: Math.ceil(size.height), scale: 1 },
		});
		const path = widths.length === 1 ? shotPath : shotPath.replace(/(\.png)?$/, `-${width}.png`);
		writeFileSync(path, Buffer.from(shot.data, "base64"));
		shots.push(`${path} (${Math.ceil(size.width)}×${Math.ceil(size.height)})`);
	}
	clearTimeout(timer);
	await send("Browser.close").catch(() => {});
	console.log(`check.mjs: ${pagePath}: "${info.title}", ${info.count} images, screenshots ${shots.join(", ")}`);
	if (problems.length > 0) finish(1, problems.map((p) => `check.mjs: ${p}`).join("\n"));
	finish(0);
} catch (e) {
	finish(1, `check.mjs: ${e.message}\n${stderr.slice(-2000)}`);
}
