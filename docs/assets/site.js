// mkdocs-material 9.8 draws each code block's buttons inside an unnamed <nav>. Several unnamed navigation
// landmarks on one page cannot be told apart (axe-core: landmark-unique), so each gets a name saying which
// code block it acts on. The theme adds code blocks on every instant navigation, so newly added ones are
// named as they appear.
const nameCodeNavs = () => {
  document.querySelectorAll("nav.md-code__nav:not([aria-label])").forEach((nav) => {
    const blocks = [...document.querySelectorAll("nav.md-code__nav")];
    nav.setAttribute("aria-label", `Code block ${blocks.indexOf(nav) + 1}: actions`);
  });
};
new MutationObserver((records) => {
  if (records.some((r) => [...r.addedNodes].some((n) => n.nodeType === 1 && (n.matches("nav.md-code__nav") || n.querySelector?.("nav.md-code__nav"))))) {
    nameCodeNavs();
  }
}).observe(document.documentElement, { childList: true, subtree: true });
nameCodeNavs();
