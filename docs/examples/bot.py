# A stax bot: it accepts every challenge and plays random legal moves. STAX_URL=... STAX_TOKEN=... python3 bot.py
import json, os, random, threading, time, urllib.error, urllib.parse, urllib.request
URL, TOKEN = os.environ["STAX_URL"].rstrip("/"), os.environ["STAX_TOKEN"]  # a token of a bot account

def call(path, method="GET"):
    req = urllib.request.Request(URL + path, method=method, headers={"Authorization": "Bearer " + TOKEN})
    try:
        return urllib.request.urlopen(req, timeout=60)  # a stream sends a keep-alive every 7 s
    except urllib.error.HTTPError as e:  # {"error": ..., "code": ...}
        if e.code == 429:  # too many requests: wait as long as the server says, then ask again
            return time.sleep(int(e.headers.get("Retry-After", "1"))) or call(path, method)
        print(method, path, e.code, e.read().decode(), flush=True)  # a refused POST is not fatal
        if method == "GET": raise
def stream(path):  # one JSON object a line; empty lines are keep-alives
    return (json.loads(line) for line in call(path) if line.strip())

def play(game, seats=(), moved=None):  # seats: the bot's, from gameFull; moved: the last ply it moved at
    for line in stream("/api/bot/game/stream/" + game):
        if line["type"] == "gameFull":
            seats, line = line["seats"], line["state"]
        if line.get("status", "playing") != "playing": return
        if line.get("toMove") in seats and line.get("legal") and line["ply"] != moved:
            moved, move = line["ply"], urllib.parse.quote(random.choice(line["legal"]), safe="")
            call(f"/api/bot/game/{game}/move/{move}?ply={moved}", "POST")

for event in stream("/api/stream/event"):
    if event["type"] == "challenge":
        call(f"/api/challenges/{event['challenge']['id']}/accept", "POST")
    elif event["type"] == "gameStart":
        threading.Thread(target=play, args=(event["game"]["id"],)).start()
