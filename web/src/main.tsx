import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App, warmUp } from "./app";
// The shell's styles, in cascade order (screens import their own).
import "./styles/tokens.css";
import "./styles/layout.css";
import "./styles/controls.css";
import "./styles/states.css";
import "./styles/overlays.css";

warmUp(window.location.pathname);
const root = document.getElementById("root");
if (root)
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
