#!/usr/bin/env bash
# Regenerates tests/fixtures/ (upload, parsing, sniffing and transcription
# fixtures). Documentation and a way to regenerate: tests use the committed
# files; oversized files (> 10 MB) are made by the tests at run time instead.
#
# Needs (Debian): ffmpeg imagemagick pocketsphinx pocketsphinx-en-us
#   pocketsphinx-testdata fonts-dejavu-core poppler-utils, plus python3 and
#   node with the repo's node_modules (xlsx) for the spreadsheets.
# Usage: scripts/make-fixtures.sh [--verify]
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
OUT="$ROOT/tests/fixtures"
CONVERT=/usr/bin/convert          # the real ImageMagick, not a stand-in earlier on PATH
FONT=/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf
RAW=/usr/share/pocketsphinx/test/data/goforward.raw     # pocketsphinx-testdata
MODEL=/usr/share/pocketsphinx/model/en-us               # pocketsphinx-en-us
FF=(ffmpeg -hide_banner -loglevel error -nostdin -y)
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
mkdir -p "$OUT"
cd "$OUT"

# --- images ---------------------------------------------------------------
"$CONVERT" -size 64x64 gradient:'#34d399-#065f46' -fill '#09090b' -draw 'circle 32,32 32,18' \
  -fill '#34d399' -draw 'circle 32,32 32,26' -depth 8 -strip -define png:exclude-chunks=date,time image.png
"$CONVERT" -seed 42 -size 320x240 plasma:green-black -blur 0x1 -strip -quality 80 photo.jpg
"$CONVERT" -size 64x64 -delay 20 -loop 0 xc:'#09090b' \
  \( xc:'#09090b' -fill '#10b981' -draw 'circle 32,32 32,20' \) \
  \( xc:'#09090b' -fill '#34d399' -draw 'circle 32,32 32,10' \) -layers optimize animation.gif
"$CONVERT" image.png -quality 80 image.webp

# --- PDFs (hand-written PDF 1.4, standard library only) -------------------
# scanned.pdf embeds a greyscale JPEG "scan" of rendered text: no text layer.
"$CONVERT" -seed 7 -size 1200x600 xc:white -font "$FONT" -pointsize 40 -fill black -annotate +80+150 'Scanned receipt' \
  -pointsize 28 -annotate +80+240 'Tree planting donation: 12 trees' \
  -annotate +80+300 'Thank you for supporting reforestation.' \
  -colorspace Gray -attenuate 0.3 +noise Gaussian -blur 0x0.6 -rotate 0.8 \
  -gravity center -crop 1200x600+0+0 +repage -strip -quality 55 "$TMP/scan.jpg"
python3 - "$OUT" "$TMP/scan.jpg" <<'PY'
import sys, zlib

def build_pdf(objects):
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for i, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % i + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    for off in offsets:
        out += b"%010d 00000 n \n" % off
    out += b"trailer\n<< /Size %d /Root 1 0 R /Info %d 0 R >>\n" % (len(objects) + 1, len(objects))
    out += b"startxref\n%d\n%%%%EOF\n" % xref
    return bytes(out)

def stream(entries, data):
    return b"<< " + entries + b" /Length %d >>\nstream\n" % len(data) + data + b"\nendstream"

def text_pdf():
    lines = [(24, b"Loris field notes"),
             (12, b"The loris sleeps during the day and forages at night."),
             (12, b"Slow lorises are found in South and Southeast Asia.")]
    ops = [b"BT", b"72 740 Td"]
    for i, (size, text) in enumerate(lines):
        if i:
            ops.append(b"0 -28 Td")
        ops += [b"/F1 %d Tf" % size, b"(" + text + b") Tj"]
    ops.append(b"ET")
    return build_pdf([
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
        b"/Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
        stream(b"/Filter /FlateDecode", zlib.compress(b"\n".join(ops), 9)),
        b"<< /Title (Loris field notes) /Producer (scripts/make-fixtures.sh) >>"])

def scanned_pdf(path):
    data = open(path, "rb").read()
    i = 2
    while True:                      # find the SOF marker for width/height/components
        marker, seglen = data[i + 1], int.from_bytes(data[i + 2:i + 4], "big")
        if marker in (0xC0, 0xC1, 0xC2):
            h = int.from_bytes(data[i + 5:i + 7], "big")
            w = int.from_bytes(data[i + 7:i + 9], "big")
            ncomp = data[i + 9]
            break
        i += 2 + seglen
    cs = b"/DeviceGray" if ncomp == 1 else b"/DeviceRGB"
    iw = 612 - 144
    ih = iw * h / w
    content = b"q %.2f 0 0 %.2f 72 %.2f cm /Im0 Do Q" % (iw, ih, 792 - 72 - ih)
    return build_pdf([
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
        b"/Resources << /XObject << /Im0 4 0 R >> >> /Contents 5 0 R >>",
        stream(b"/Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace %s "
               b"/BitsPerComponent 8 /Filter /DCTDecode" % (w, h, cs), data),
        stream(b"", content),
        b"<< /Title (Scanned page) /Producer (scripts/make-fixtures.sh) >>"])

out, scan = sys.argv[1], sys.argv[2]
open(out + "/document.pdf", "wb").write(text_pdf())
open(out + "/scanned.pdf", "wb").write(scanned_pdf(scan))
PY

# --- DOCX (minimal WordprocessingML package, fixed zip dates) -------------
python3 - document.docx <<'PY'
import sys, zipfile
CT = """<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">
  <Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>
  <Default Extension="xml" ContentType="application/xml"/>
  <Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>
</Types>
"""
RELS = """<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
  <Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>
</Relationships>
"""
DOC = """<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">
  <w:body>
    <w:p><w:r><w:rPr><w:b/><w:sz w:val="32"/></w:rPr><w:t>Loris impact report</w:t></w:r></w:p>
    <w:p><w:r><w:t>Reforestation partners plant native trees.</w:t></w:r></w:p>
    <w:sectPr><w:pgSz w:w="12240" w:h="15840"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="720" w:footer="720" w:gutter="0"/></w:sectPr>
  </w:body>
</w:document>
"""
with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED) as z:
    for name, text in (("[Content_Types].xml", CT), ("_rels/.rels", RELS), ("word/document.xml", DOC)):
        info = zipfile.ZipInfo(name, date_time=(2024, 1, 1, 0, 0, 0))
        info.compress_type = zipfile.ZIP_DEFLATED
        info.external_attr = 0o644 << 16
        z.writestr(info, text)
PY

# --- spreadsheets (SheetJS from the repo's node_modules), CSV, text --------
(cd "$ROOT" && node -e "
const XLSX = require('xlsx');
const out = process.argv[1];
const rows = [['Month', 'Trees'], ['January', 120], ['February', 95]];
const wb = XLSX.utils.book_new();
XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet(rows), 'Trees');
wb.Props = { Title: 'Trees planted', Author: 'Loris', CreatedDate: new Date('2024-01-01T00:00:00Z') };
XLSX.writeFile(wb, out + '/sheet.xlsx', { bookType: 'xlsx', compression: true });
XLSX.writeFile(wb, out + '/sheet.xls', { bookType: 'xls' });
" "$OUT")
printf 'Month,Trees\nJanuary,120\nFebruary,95\n' > data.csv
printf 'Loris notes: compost on Tuesdays.\n' > notes.txt

# --- hostile files ----------------------------------------------------------
cat > script.svg <<'EOF'
<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64">
  <rect width="64" height="64" fill="#09090b"/>
  <circle cx="32" cy="32" r="20" fill="#10b981"/>
  <script>alert(1)</script>
</svg>
EOF
# program.png: a real (129-byte, static, x86-64) Linux ELF that calls exit(0).
python3 - program.png <<'PY'
import struct, sys
code = bytes([0x31, 0xff, 0xb8, 0x3c, 0, 0, 0, 0x0f, 0x05])   # xor edi,edi; mov eax,60; syscall
base, ehsz, phsz = 0x400000, 64, 56
size = ehsz + phsz + len(code)
ehdr = b"\x7fELF" + bytes([2, 1, 1, 0]) + b"\0" * 8 + struct.pack(
    "<HHIQQQIHHHHHH", 2, 0x3E, 1, base + ehsz + phsz, ehsz, 0, 0, ehsz, phsz, 1, 0, 0, 0)
phdr = struct.pack("<IIQQQQQQ", 1, 5, 0, base, base, size, size, 0x1000)
open(sys.argv[1], "wb").write(ehdr + phdr + code)
PY
chmod 644 program.png
python3 -c "import random; r=random.Random(1234); open('not-audio.webm','wb').write(bytes(r.getrandbits(8) for _ in range(4096)))"

# --- speech -----------------------------------------------------------------
# goforward.raw: 16 kHz mono s16le PCM, "go forward ten meters".
"${FF[@]}" -f s16le -ar 16000 -ac 1 -i "$RAW" -c:a pcm_s16le -map_metadata -1 \
  -fflags +bitexact -flags:a +bitexact goforward.wav
# Opus in WebM at 48 kHz mono, like a browser MediaRecorder (audio/webm;codecs=opus)
"${FF[@]}" -f s16le -ar 16000 -ac 1 -i "$RAW" -c:a libopus -b:a 32k -ar 48000 -ac 1 -map_metadata -1 -fflags +bitexact -f webm goforward.webm
"${FF[@]}" -f lavfi -i anullsrc=r=48000:cl=mono -t 2 -c:a libopus -b:a 24k -fflags +bitexact -f webm silence.webm
# 2 min 10 s of quiet pink noise (over the 2-minute recording limit), ~190 KB
"${FF[@]}" -f lavfi -i "anoisesrc=r=48000:color=pink:amplitude=0.02:seed=7" -t 130 -ac 1 \
  -c:a libopus -b:a 12k -application voip -fflags +bitexact -f webm long.webm

if [[ ${1:-} == --verify ]]; then
  ps_args=(-hmm "$MODEL/en-us" -lm "$MODEL/en-us.lm.bin" -dict "$MODEL/cmudict-en-us.dict" -logfn /dev/null)
  echo "wav : $(pocketsphinx_continuous -infile goforward.wav "${ps_args[@]}")"
  "${FF[@]}" -i goforward.webm -ar 16000 -ac 1 -c:a pcm_s16le -f wav "$TMP/gf.wav"
  echo "webm: $(pocketsphinx_continuous -infile "$TMP/gf.wav" "${ps_args[@]}")"
  echo "pdf : $(pdftotext document.pdf - | tr '\n' ' ')"
  echo "scan: '$(pdftotext scanned.pdf - | tr -d '\f\n')' (expected empty)"
fi
ls -l "$OUT"
