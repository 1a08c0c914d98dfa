# A stax bot: it accepts every challenge and plays random legal moves. STAX_URL=... STAX_TOKEN=... python3 bot.py
import json, os, random, threading, urllib.error, urllib.parse, urllib.request
URL, TOKEN = os.environ["STAX_URL"].rstrip("/"), os.environ["STAX_TOKEN"]  # a token of a bot account

def call(path, method="GET"):
    req = urllib.request.Request(URL + path, method=method, headers={"Authorization": "Bearer " + TOKEN})
    try:
        return urllib.request.urlopen(req, timeout=60)  # a stream sends a keep-alive every 7 s
    except urllib.error.HTTPError as e:  # {"error": ..., "code": ...}; a refused POST is not fatal
        print(method, path, e.code, e.read().decode(), flush=True)
        if method == "GET": raise
def stream(path):  # one JSON object a line; empty lines are keep-alives
    return (json.loads(line) for line in call(path) if line.strip())

def play(game):
    seats, moved = [], None
    for line in stream("/api/bot/game/stream/" + game):
        if line["type"] == "gameFull":
            seats, line = line["seats"], line["state"]
        if line.get("status", "playing") != "playing":
            return
        if line.get("toMove") in seats and line.get("legal") and line["ply"] != moved:
            moved, move = line["ply"], urllib.parse.quote(random.choice(line["legal"]), safe="")
            call(f"/api/bot/game/{game}/move/{move}?ply={moved}", "POST")

for event in stream("/api/stream/event"):
    if event["type"] == "challenge":
        call(f"/api/challenges/{event['challenge']['id']}/accept", "POST")
    elif event["type"] == "gameStart":
        threading.Thread(target=play, args=(event["game"]["id"],)).start()
