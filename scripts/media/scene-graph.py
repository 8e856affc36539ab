# The ffmpeg filtergraph of a scene config (scripts/media/*.json), for make-media.sh.
# Background: soft gaussian glows and an aurora-like ribbon, evaluated with geq
# at quarter resolution, upscaled and blurred. Foreground: defocused bokeh
# discs and "fireflies" (tiny geq sprites, alpha pulsing) moved by overlay.
# Every moving quantity is sin(2*pi*k*t/P) with integer k, so the frame at
# t=P equals the frame at t=0: the clip loops without a seam. A static luma
# dither (noise filter without the temporal flag) hides 8-bit banding.
# Usage: python3 scene-graph.py SCENE.json [key=json ...]
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
