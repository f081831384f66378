// The landing page: the token it was opened with (#token=…) goes into this tab's session
// storage, where the station pages opened from its links find it; the links keep the query
// (tournament, table) and never carry the token.

import { takeToken } from "./connection.js";

takeToken();
for (const a of document.querySelectorAll("a[data-station]")) a.search = location.search;
