// The home page only needs the edition selector (relabelling and links), which common.js wires up.
import "./common.js";
