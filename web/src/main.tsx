import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App, warmUp } from "./app";
import "./styles.css";

warmUp(window.location.pathname);
const root = document.getElementById("root");
if (root)
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
