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
