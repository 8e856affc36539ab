#!/usr/bin/env bash
# Regenerates Loris' web media in public/ from nothing but code: the hero and
# chat background loops (ffmpeg lavfi + geq), their posters, the favicon, the
# PWA / Apple icons, the Open Graph image, the web manifest and robots.txt.
#
# Documentation and a way to regenerate: the build does not run this.
#
# Needs (Debian): ffmpeg imagemagick librsvg2-bin fonts-dejavu-core webp python3
#   apt-get install -y ffmpeg imagemagick librsvg2-bin fonts-dejavu-core webp
# Usage: scripts/make-media.sh [only]   where only is one of: videos icons og meta
# Takes ~8 minutes on 2 cores (the geq light fields are the slow part).
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
PUB="$ROOT/public"
MEDIA="$PUB/media"
ONLY="${1:-all}"
CONVERT=/usr/bin/convert          # the real ImageMagick, not a stand-in earlier on PATH
FONT_BOLD=/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf
FONT=/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf
for t in ffmpeg python3 rsvg-convert "$CONVERT"; do
  command -v "$t" >/dev/null || { echo "missing tool: $t" >&2; exit 1; }
done
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
mkdir -p "$MEDIA" "$PUB/icons"
FF=(ffmpeg -hide_banner -loglevel error -nostdin -y)

# ---------------------------------------------------------------------------
# 1. Filtergraph generator.
# Background: soft gaussian glows and an aurora-like ribbon, evaluated with geq
# at quarter resolution, upscaled and blurred. Foreground: defocused bokeh
# discs and "fireflies" (tiny geq sprites, alpha pulsing) moved by overlay.
# Every moving quantity is sin(2*pi*k*t/P) with integer k, so the frame at
# t=P equals the frame at t=0: the clip loops without a seam. A static luma
# dither (noise filter without the temporal flag) hides 8-bit banding.
# ---------------------------------------------------------------------------
cat > "$TMP/gen.py" <<'PY'
import json, math, random, sys

def f(x):
    return ("%.4f" % x).rstrip('0').rstrip('.') if isinstance(x, float) else str(x)

def glow_terms(cfg, c):
    P, M = cfg['P'], min(cfg['lw'], cfg['lh'])
    terms = []
    for b in cfg['blobs']:
        col = b['col'][c] * b['amp'] * cfg.get('gain', 1.0)
        if col < 0.5:
            continue
        cx = f"({f(b['cx'])}+{f(b['ax'])}*sin(2*PI*{b['kx']}*T/{P}+{f(b['px'])}))"
        cy = f"({f(b['cy'])}+{f(b['ay'])}*sin(2*PI*{b['ky']}*T/{P}+{f(b['py'])}))"
        terms.append(f"{col:.2f}*exp(-(pow((X-{cx}*W)/{M},2)+pow((Y-{cy}*H)/{M},2))/{2*b['s']**2:.5f})")
    for r in cfg['ribbons']:
        col = r['col'][c] * r['amp'] * cfg.get('gain', 1.0)
        if col < 0.5:
            continue
        yc = (f"({f(r['cy'])}+{f(r['a1'])}*sin(2*PI*({f(r['f1'])}*X/W+{r['k1']}*T/{P})+{f(r['p1'])})"
              f"+{f(r['a2'])}*sin(2*PI*({f(r['f2'])}*X/W-{r['k2']}*T/{P})+{f(r['p2'])}))")
        mod = f"(0.5+0.5*sin(2*PI*({f(r['f3'])}*X/W+{r['k3']}*T/{P})))"
        terms.append(f"{col:.2f}*{mod}*exp(-pow((Y-{yc}*H)/{M},2)/{2*r['s']**2:.5f})")
    return terms

def background(cfg):
    v = cfg.get('vignette', 0.0)
    vig = f"exp(-{f(v)}*(pow(X/W-0.5,2)+pow(Y/H-0.5,2))*4)"   # darkens the glow only
    ch = []
    for c in range(3):
        t = glow_terms(cfg, c)
        e = str(cfg['bg'][c]) + (f"+{vig}*(" + "+".join(t) + ")" if t else "")
        ch.append(f"min(255,{e})")
    return ("color=c=black:s={lw}x{lh}:r={fps}:d={dur},format=gbrp,"
            "geq=r='{0}':g='{1}':b='{2}',"
            "scale={W}x{H}:flags=bicubic,gblur=sigma={gb}").format(
                *ch, gb=cfg.get('blur', 2), **dict(cfg, dur=cfg.get('dur', cfg['P'])))

def particles(cfg):
    rnd = random.Random(cfg.get('seed', 1))
    W, H, P, fps = cfg['W'], cfg['H'], cfg['P'], cfg['fps']
    out = []
    for kind in cfg['particles']:
        for _ in range(kind['n']):
            col = rnd.choice(kind['colors'])
            rad = rnd.uniform(*kind['radius'])
            S = int(math.ceil(rad * kind.get('extent', 3.0))) * 2 + 2
            h = S / 2
            alpha = rnd.uniform(*kind['alpha'])
            kp = rnd.choice(kind['pulse_k'])
            ph = rnd.uniform(0, 2 * math.pi)
            sharp = kind.get('pulse_pow', 1)
            core = kind.get('core', 0.0)
            d = f"hypot(X-{h},Y-{h})"
            if kind.get('disc'):   # defocused bokeh: flat disc, soft edge, brighter rim
                prof = (f"clip(({f(rad)}-{d})/{f(max(1.5, rad*0.25))}+0.5,0,1)"
                        f"*(0.75+0.25*pow(min(1,{d}/{f(rad)}),4))")
            else:                  # firefly: bright core + gaussian halo
                prof = (f"min(1,{f(core)}*exp(-pow({d}/{f(rad*0.35)},2))+"
                        f"{f(1-core)}*exp(-pow({d}/{f(rad)},2)))")
            pulse = f"pow(0.5+0.5*sin(2*PI*{kp}*T/{P}+{f(ph)}),{sharp})"
            lo = kind.get('pulse_floor', 0.0)
            a = f"255*{f(alpha)}*({f(lo)}+{f(1-lo)}*{pulse})*{prof}"
            src = (f"color=c=black@0:s={S}x{S}:r={fps}:d={cfg.get('dur', P)},format=rgba,"
                   f"geq=r={col[0]}:g={col[1]}:b={col[2]}:a='{a}'")
            x0 = rnd.uniform(*kind.get('xr', (0.03, 0.97))) * W
            y0 = rnd.uniform(*kind.get('yr', (0.05, 0.95))) * H
            ax, ay = rnd.uniform(*kind['orbit']) * W, rnd.uniform(*kind['orbit']) * H
            kx, ky = rnd.choice(kind['orbit_k']), rnd.choice(kind['orbit_k'])
            px, py = rnd.uniform(0, 2 * math.pi), rnd.uniform(0, 2 * math.pi)
            x = f"{f(x0 - h)}+{f(ax)}*sin(2*PI*{kx}*t/{P}+{f(px)})"
            y = f"{f(y0 - h)}+{f(ay)}*cos(2*PI*{ky}*t/{P}+{f(py)})"
            out.append((src, x, y))
    return out

def graph(cfg):
    lines = [background(cfg) + "[b0]"]
    parts = particles(cfg)
    for i, (src, _, _) in enumerate(parts):
        lines.append(f"{src}[s{i}]")
    cur = "b0"
    for i, (_, x, y) in enumerate(parts):
        lines.append(f"[{cur}][s{i}]overlay=x='{x}':y='{y}':format=rgb:eval=frame[b{i+1}]")
        cur = f"b{i+1}"
    lines.append(f"[{cur}]{cfg.get('post', 'null')},format=yuv420p[out]")
    return ";\n".join(lines)

if __name__ == '__main__':
    cfg = json.load(open(sys.argv[1]))
    for kv in sys.argv[2:]:          # overrides, e.g. fps=0.4 for a quick contact sheet
        k, v = kv.split('=', 1)
        cfg[k] = json.loads(v)
    print(graph(cfg))
PY

# ---------------------------------------------------------------------------
# 2. Scene configs (colours: #09090b base, #10b981 emerald, #34d399 mint,
#    #14b8a6/#2dd4bf teal, #065f46 deep green, #a7f3d0/#6ee7b7 pale mint).
# ---------------------------------------------------------------------------
cat > "$TMP/hero.json" <<'JSON'
{"W":1280,"H":720,"lw":320,"lh":180,"fps":24,"P":10,"seed":7,"gain":0.9,"vignette":0.55,"blur":2,
 "bg":[9,9,11],
 "blobs":[
  {"col":[16,185,129],"amp":0.50,"cx":0.28,"cy":0.42,"ax":0.07,"ay":0.06,"kx":1,"ky":1,"px":0.0,"py":1.57,"s":0.26},
  {"col":[20,184,166],"amp":0.38,"cx":0.74,"cy":0.34,"ax":0.06,"ay":0.07,"kx":1,"ky":1,"px":2.1,"py":0.3,"s":0.22},
  {"col":[52,211,153],"amp":0.22,"cx":0.56,"cy":0.82,"ax":0.09,"ay":0.04,"kx":1,"ky":1,"px":4.0,"py":0.9,"s":0.20},
  {"col":[6,95,70],"amp":0.6,"cx":0.88,"cy":0.86,"ax":0.04,"ay":0.04,"kx":1,"ky":1,"px":1.0,"py":3.0,"s":0.26}],
 "ribbons":[
  {"col":[52,211,153],"amp":0.30,"cy":0.55,"a1":0.06,"f1":0.7,"k1":1,"p1":0.0,"a2":0.025,"f2":1.6,"k2":1,"p2":1.2,"f3":0.9,"k3":1,"s":0.045}],
 "particles":[
  {"n":7,"disc":true,"colors":[[52,211,153],[16,185,129],[45,212,191],[110,231,183]],"radius":[14,38],"extent":1.15,
   "alpha":[0.05,0.12],"pulse_k":[1],"pulse_floor":0.35,"orbit":[0.01,0.04],"orbit_k":[1]},
  {"n":16,"colors":[[167,243,208],[110,231,183],[190,242,100],[52,211,153]],"radius":[6,10],"extent":2.6,"core":0.7,
   "alpha":[0.6,1.0],"pulse_k":[1,2],"pulse_pow":2,"pulse_floor":0.08,"orbit":[0.01,0.05],"orbit_k":[1]}],
 "post":"noise=c0s=3:c0f=u"}
JSON
cat > "$TMP/chat-bg-wide.json" <<'JSON'
{"W":1280,"H":720,"lw":320,"lh":180,"fps":24,"P":10,"seed":21,"gain":0.42,"vignette":0.2,"blur":2,
 "bg":[9,9,11],
 "blobs":[
  {"col":[16,185,129],"amp":0.55,"cx":0.12,"cy":0.18,"ax":0.05,"ay":0.05,"kx":1,"ky":1,"px":0.0,"py":1.57,"s":0.30},
  {"col":[20,184,166],"amp":0.45,"cx":0.90,"cy":0.88,"ax":0.05,"ay":0.04,"kx":1,"ky":1,"px":2.1,"py":0.3,"s":0.30},
  {"col":[6,95,70],"amp":0.8,"cx":0.86,"cy":0.12,"ax":0.04,"ay":0.04,"kx":1,"ky":1,"px":4.0,"py":0.9,"s":0.24},
  {"col":[52,211,153],"amp":0.18,"cx":0.22,"cy":0.92,"ax":0.06,"ay":0.03,"kx":1,"ky":1,"px":1.0,"py":3.0,"s":0.22}],
 "ribbons":[
  {"col":[52,211,153],"amp":0.16,"cy":0.80,"a1":0.04,"f1":0.6,"k1":1,"p1":0.5,"a2":0.02,"f2":1.4,"k2":1,"p2":1.9,"f3":0.8,"k3":1,"s":0.05}],
 "particles":[
  {"n":5,"disc":true,"colors":[[52,211,153],[16,185,129],[45,212,191]],"radius":[16,34],"extent":1.15,
   "alpha":[0.03,0.07],"pulse_k":[1],"pulse_floor":0.3,"orbit":[0.01,0.03],"orbit_k":[1]},
  {"n":9,"colors":[[167,243,208],[110,231,183],[52,211,153]],"radius":[5,8],"extent":2.6,"core":0.7,
   "alpha":[0.25,0.5],"pulse_k":[1],"pulse_pow":2,"pulse_floor":0.05,"orbit":[0.01,0.03],"orbit_k":[1]}],
 "post":"noise=c0s=2:c0f=u"}
JSON
cat > "$TMP/chat-bg-portrait.json" <<'JSON'
{"W":720,"H":1280,"lw":180,"lh":320,"fps":24,"P":10,"seed":33,"gain":0.42,"vignette":0.2,"blur":2,
 "bg":[9,9,11],
 "blobs":[
  {"col":[16,185,129],"amp":0.55,"cx":0.15,"cy":0.10,"ax":0.06,"ay":0.03,"kx":1,"ky":1,"px":0.0,"py":1.57,"s":0.32},
  {"col":[20,184,166],"amp":0.45,"cx":0.88,"cy":0.90,"ax":0.06,"ay":0.03,"kx":1,"ky":1,"px":2.1,"py":0.3,"s":0.32},
  {"col":[6,95,70],"amp":0.8,"cx":0.90,"cy":0.22,"ax":0.05,"ay":0.03,"kx":1,"ky":1,"px":4.0,"py":0.9,"s":0.26},
  {"col":[52,211,153],"amp":0.18,"cx":0.15,"cy":0.78,"ax":0.06,"ay":0.03,"kx":1,"ky":1,"px":1.0,"py":3.0,"s":0.24}],
 "ribbons":[
  {"col":[52,211,153],"amp":0.16,"cy":0.86,"a1":0.025,"f1":0.5,"k1":1,"p1":0.5,"a2":0.012,"f2":1.1,"k2":1,"p2":1.9,"f3":0.8,"k3":1,"s":0.06}],
 "particles":[
  {"n":5,"disc":true,"colors":[[52,211,153],[16,185,129],[45,212,191]],"radius":[16,34],"extent":1.15,
   "alpha":[0.03,0.07],"pulse_k":[1],"pulse_floor":0.3,"orbit":[0.01,0.03],"orbit_k":[1]},
  {"n":9,"colors":[[167,243,208],[110,231,183],[52,211,153]],"radius":[5,8],"extent":2.6,"core":0.7,
   "alpha":[0.25,0.5],"pulse_k":[1],"pulse_pow":2,"pulse_floor":0.05,"orbit":[0.01,0.03],"orbit_k":[1]}],
 "post":"noise=c0s=2:c0f=u"}
JSON

# render NAME VP9_CRF X264_CRF -> public/media/NAME.{webm,mp4} + NAME-poster.webp
render() {
  local name=$1 vcrf=$2 hcrf=$3 src="$TMP/$1.mkv"
  python3 "$TMP/gen.py" "$TMP/$name.json" > "$TMP/$name.fg"
  # lossless intermediate (FFV1), exactly P*fps frames: 10 s, 240 frames
  "${FF[@]}" -filter_complex_script "$TMP/$name.fg" -map '[out]' -c:v ffv1 "$src"
  # VP9, two-pass constant quality, no audio
  local vp9=(-c:v libvpx-vp9 -b:v 0 -crf "$vcrf" -row-mt 1 -deadline good -cpu-used 1 -g 240
             -pix_fmt yuv420p -passlogfile "$TMP/$name-vp9")
  "${FF[@]}" -i "$src" "${vp9[@]}" -pass 1 -an -f null /dev/null
  "${FF[@]}" -i "$src" "${vp9[@]}" -pass 2 -an -map_metadata -1 "$MEDIA/$name.webm"
  # H.264 Main, yuv420p, moov atom first, no audio
  "${FF[@]}" -i "$src" -c:v libx264 -profile:v main -preset veryslow -tune grain -crf "$hcrf" -g 240 \
    -pix_fmt yuv420p -movflags +faststart -an -map_metadata -1 "$MEDIA/$name.mp4"
  # poster = first frame of the same intermediate
  "${FF[@]}" -i "$src" -frames:v 1 -c:v libwebp -quality 88 -compression_level 6 -preset picture \
    "$MEDIA/$name-poster.webp"
}

if [[ $ONLY == all || $ONLY == videos ]]; then
  render hero 24 24
  render chat-bg-wide 28 27
  render chat-bg-portrait 28 27
fi

# ---------------------------------------------------------------------------
# 3. Mark: a leaf that is also a loris eye (emerald, transparent background).
# ---------------------------------------------------------------------------
MARK_DEFS='<defs><linearGradient id="g" x1="0" y1="1" x2="1" y2="0"><stop offset="0" stop-color="#10b981"/><stop offset="1" stop-color="#34d399"/></linearGradient></defs>'
MARK_BODY='<g transform="rotate(-35 32 32)"><path d="M3 32C14 12 50 12 61 32C50 52 14 52 3 32Z" fill="url(#g)"/><circle cx="32" cy="32" r="12.5" fill="#09090b"/><circle cx="36.5" cy="27.5" r="4" fill="#a7f3d0"/></g>'
if [[ $ONLY == all || $ONLY == icons || $ONLY == og ]]; then
  cat > "$PUB/favicon.svg" <<EOF
<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" width="64" height="64">
  <title>Loris</title>
  $MARK_DEFS
  $MARK_BODY
</svg>
EOF
  # App icons: opaque #09090b square, mark inside the maskable safe zone (centre 80 %).
  cat > "$TMP/icon.svg" <<EOF
<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" width="64" height="64">
  $MARK_DEFS
  <rect width="64" height="64" fill="#09090b"/>
  <g transform="translate(32 32) scale(0.62) translate(-32 -32)">$MARK_BODY</g>
</svg>
EOF
  for s in 192 512; do
    rsvg-convert -w $s -h $s "$TMP/icon.svg" | "$CONVERT" - -strip -define png:exclude-chunks=date,time "$PUB/icons/icon-$s.png"
  done
  rsvg-convert -w 180 -h 180 "$TMP/icon.svg" | "$CONVERT" - -strip -alpha off -define png:exclude-chunks=date,time "$PUB/icons/apple-touch-icon.png"
fi

# ---------------------------------------------------------------------------
# 4. Open Graph image 1200x630: hero light, mark, "Loris", tagline (DejaVu Sans).
# ---------------------------------------------------------------------------
if [[ $ONLY == all || $ONLY == og ]]; then
  "${FF[@]}" -i "$MEDIA/hero.mp4" -frames:v 1 -vf "scale=1200:675,crop=1200:630" "$TMP/og-bg.png"
  cat > "$TMP/mark.svg" <<EOF
<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" width="64" height="64">$MARK_DEFS$MARK_BODY</svg>
EOF
  rsvg-convert -w 150 -h 150 "$TMP/mark.svg" -o "$TMP/mark-150.png"
  "$CONVERT" "$TMP/og-bg.png" -fill '#09090b' -colorize 45% \
    "$TMP/mark-150.png" -geometry +96+170 -composite \
    -font "$FONT_BOLD" -pointsize 150 -fill '#34d399' -annotate +276+296 'Loris' \
    -font "$FONT" -pointsize 46 -fill '#d1fae5' -annotate +100+420 'AI chat that cares for the planet' \
    -fill '#10b981' -draw 'rectangle 100,462 220,468' \
    -strip -define png:exclude-chunks=date,time -quality 95 "$PUB/og-image.png"
fi

# ---------------------------------------------------------------------------
# 5. Web manifest and robots.txt
# ---------------------------------------------------------------------------
if [[ $ONLY == all || $ONLY == meta ]]; then
  cat > "$PUB/site.webmanifest" <<'EOF'
{
  "name": "Loris",
  "short_name": "Loris",
  "description": "AI chat that cares for the planet",
  "start_url": "/chat",
  "scope": "/",
  "display": "standalone",
  "theme_color": "#09090b",
  "background_color": "#09090b",
  "icons": [
    { "src": "/icons/icon-192.png", "sizes": "192x192", "type": "image/png", "purpose": "any" },
    { "src": "/icons/icon-512.png", "sizes": "512x512", "type": "image/png", "purpose": "any" },
    { "src": "/icons/icon-512.png", "sizes": "512x512", "type": "image/png", "purpose": "maskable" },
    { "src": "/favicon.svg", "sizes": "any", "type": "image/svg+xml" }
  ]
}
EOF
  printf 'User-agent: *\nAllow: /\n' > "$PUB/robots.txt"
fi

ls -l "$PUB/favicon.svg" "$PUB/og-image.png" "$PUB/site.webmanifest" "$PUB/robots.txt" "$PUB/icons" "$MEDIA" 2>/dev/null || true
