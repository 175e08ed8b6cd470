// The staff workspace (/staff): rendered in the browser from the
// workspace's JSON API, a bundle of its own that no public page loads.
import "./staff.css";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { BrowserRouter } from "react-router-dom";
import { StaffApp } from "./App";
import { readBoot } from "./boot";
import { loadStrings } from "./i18n";

const boot = readBoot();
void loadStrings(boot.lang).then((i18n) => {
  createRoot(document.getElementById("root")!).render(
    <StrictMode>
      <BrowserRouter>
        <StaffApp boot={boot} i18n={i18n} />
      </BrowserRouter>
    </StrictMode>,
  );
});
