// The console's one stylesheet, served at /admin/admin.css (the Content-Security-Policy allows no inline style).
export const ADMIN_CSS = `
body{font:15px/1.45 system-ui,sans-serif;margin:0;color:#1d232a;background:#f7f7f5}
header{display:flex;gap:1rem;align-items:center;padding:.6rem 1rem;background:#1d232a;color:#fff}
header nav{display:flex;gap:1rem;align-items:center;margin-left:auto}
header a{color:#cfe3ff}
main{max-width:72rem;margin:1rem auto;padding:0 1rem}
table{border-collapse:collapse;width:100%;margin:.5rem 0 1rem;background:#fff}
th,td{text-align:left;padding:.3rem .5rem;border-bottom:1px solid #ddd;vertical-align:top}
form.inline{display:inline}
form.row{display:flex;gap:.5rem;flex-wrap:wrap;align-items:end;margin:.5rem 0}
input,button{font:inherit;padding:.25rem .5rem}
button.danger{color:#fff;background:#b3261e;border:1px solid #8c1d18}
.notice{background:#e6f4ea;border:1px solid #8bc59a;padding:.5rem}
.error{background:#fce8e6;border:1px solid #e39a93;padding:.5rem}
.secret{font-family:ui-monospace,monospace;background:#fff8d6;padding:.1rem .3rem}
.thread{background:#fff;border:1px solid #ddd;padding:.5rem;margin:.5rem 0}
.comment{border-top:1px dashed #ddd;padding:.3rem 0}
.muted{color:#6b7280}
svg.chart text{font-size:11px}
`;
