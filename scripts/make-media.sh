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
SCENES="$ROOT/scripts/media"
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
# 1. Looping videos: scripts/media/scene-graph.py writes the ffmpeg filtergraph
# of a scene config, scripts/media/NAME.json (colours: #09090b base, #10b981
# emerald, #34d399 mint, #14b8a6/#2dd4bf teal, #065f46 deep green,
# #a7f3d0/#6ee7b7 pale mint).
# ---------------------------------------------------------------------------
# render NAME VP9_CRF X264_CRF -> public/media/NAME.{webm,mp4} + NAME-poster.webp
render() {
  local name=$1 vcrf=$2 hcrf=$3 src="$TMP/$1.mkv"
  python3 "$SCENES/scene-graph.py" "$SCENES/$name.json" > "$TMP/$name.fg"
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
