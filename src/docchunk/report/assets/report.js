(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("chunk-data").textContent);
  var panel = document.getElementById("panel");
  var meta = document.getElementById("panel-meta");
  var selected = null;

  function contextualized(record, element) {
    if (!Array.isArray(record.x)) { return record.x; }
    return record.x[0] + element.querySelector(".t").textContent + record.x[1];
  }

  function row(list, term, value) {
    var dt = document.createElement("dt");
    var dd = document.createElement("dd");
    dt.textContent = term;
    dd.textContent = value;
    list.appendChild(dt);
    list.appendChild(dd);
  }

  function show(element) {
    var doc = data.docs[Number(element.dataset.doc)];
    var record = doc.chunks[Number(element.dataset.chunk)];
    if (selected) { selected.classList.remove("selected"); }
    selected = element;
    element.classList.add("selected");
    meta.textContent = "";
    meta.appendChild(element.querySelector(".m").cloneNode(true));
    var list = document.createElement("dl");
    row(list, "document", doc.source);
    if (record.k) { row(list, "captions", record.k.join(" | ")); }
    if (record.l) { row(list, "items", record.l.join(", ")); }
    if (record.s !== undefined) { row(list, "characters", record.s + "–" + record.e); }
    if (record.r !== undefined) { row(list, "table", record.r); }
    meta.appendChild(list);
    document.getElementById("ctx").textContent = contextualized(record, element);
    var context = document.getElementById("panel-context");
    context.hidden = !record.c;
    document.getElementById("context").textContent = record.c || "";
    panel.hidden = false;
    document.body.classList.add("with-panel");
  }

  document.addEventListener("click", function (event) {
    var element = event.target.closest(".ck");
    if (element && !event.target.closest("a")) { show(element); }
  });
  document.addEventListener("keydown", function (event) {
    if (event.key === "Enter" && event.target.classList && event.target.classList.contains("ck")) { show(event.target); }
    if (event.key === "Escape") { panel.hidden = true; document.body.classList.remove("with-panel"); }
  });
  document.getElementById("panel-close").addEventListener("click", function () {
    panel.hidden = true;
    document.body.classList.remove("with-panel");
  });
  function fromHash() {
    var element = location.hash ? document.getElementById(decodeURIComponent(location.hash.slice(1))) : null;
    if (element && element.classList.contains("ck")) { show(element); }
  }
  window.addEventListener("hashchange", fromHash);
  fromHash();
}());
