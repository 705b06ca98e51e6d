// Two fixes to mkdocs-material 9.8 that the accessibility audit (tests/web/test_accessibility.py) asks for.
//
// 1. The theme draws each code block's buttons inside an unnamed <nav>. Several unnamed navigation landmarks
//    on one page cannot be told apart (axe-core: landmark-unique), so each gets a name.
// 2. The theme makes a code block that scrolls sideways focusable only where the device can hover, so on a
//    phone a keyboard cannot reach it to scroll it (axe-core: scrollable-region-focusable). A block that
//    scrolls is made focusable everywhere, and again if the theme takes that away.
const CODE_NAV = "nav.md-code__nav";

const nameCodeNavs = () => {
  const navs = [...document.querySelectorAll(CODE_NAV)];
  navs.forEach((nav, index) => {
    if (!nav.hasAttribute("aria-label")) nav.setAttribute("aria-label", `Code block ${index + 1}: actions`);
  });
};

const keepScrollingCodeFocusable = (code) => {
  if (code.scrollWidth > code.clientWidth && code.getAttribute("tabindex") !== "0") {
    code.setAttribute("tabindex", "0");
  }
};

const sweep = () => {
  nameCodeNavs();
  document.querySelectorAll("pre > code").forEach(keepScrollingCodeFocusable);
};

new MutationObserver((records) => {
  let added = false;
  for (const record of records) {
    if (record.type === "attributes" && record.target.matches("pre > code")) {
      keepScrollingCodeFocusable(record.target);
    } else if (
      [...record.addedNodes].some((n) => n.nodeType === 1 && (n.matches(CODE_NAV) || n.querySelector?.(CODE_NAV)))
    ) {
      added = true;
    }
  }
  if (added) sweep();
}).observe(document.documentElement, { childList: true, subtree: true, attributes: true, attributeFilter: ["tabindex"] });

sweep();
addEventListener("resize", sweep);

// 3. Offline after one visit: every page of the edition being read is kept by the site's service worker
//    (scorer_wasm/web/sw.js, at the site's root). The page names its edition's root (the theme's base) and the
//    files it loaded itself, which the worker did not yet see; the worker fetches the edition's pages from the
//    edition's search index. Registering costs nothing else: the editor's runtime is kept only when the editor
//    runs. The Chinese edition sits one folder below the root (zh/).
const keepEditionOffline = async () => {
  if (!("serviceWorker" in navigator) || !window.isSecureContext) return;
  const config = document.getElementById("__config");
  if (!config) return;
  try {
    const edition = new URL(`${JSON.parse(config.textContent).base}/`, location.href);
    const chinese = document.documentElement.lang.toLowerCase().startsWith("zh");
    const root = chinese ? new URL("../", edition) : edition;
    // Once per edition and browsing session: each page the reader opens next is kept as it is visited anyway.
    const asked = `cvb-kept:${edition.href}`;
    if (sessionStorage.getItem(asked)) return;
    await navigator.serviceWorker.register(new URL("sw.js", root));
    const registration = await navigator.serviceWorker.ready;
    const urls = [location.href.split("#")[0], ...performance.getEntriesByType("resource").map((e) => e.name)];
    registration.active?.postMessage({
      type: "keep-edition",
      edition: edition.href,
      urls: [...new Set(urls)].filter((url) => new URL(url).origin === location.origin),
    });
    sessionStorage.setItem(asked, "1");
  } catch (error) {
    console.info(`This site will not be kept for offline reading: ${error.message}`);
  }
};
if (document.readyState === "complete") keepEditionOffline();
else addEventListener("load", keepEditionOffline, { once: true });
