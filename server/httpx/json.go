package httpx

import (
	"encoding/json"
	"io"
	"net/http"
)

// maxBody bounds a request body.
const MaxBody = 64 << 10

// Error writes {"error": msg} with the status code.
func Error(w http.ResponseWriter, code int, msg string) {
	WriteJSON(w, code, map[string]string{"error": msg})
}

// ErrorCode writes {"error": msg, "code": errCode} with the status code.
func ErrorCode(w http.ResponseWriter, code int, errCode, msg string) {
	WriteJSON(w, code, map[string]string{"error": msg, "code": errCode})
}

func WriteJSON(w http.ResponseWriter, code int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		code, b = http.StatusInternalServerError, []byte(`{"error":"encoding the answer failed"}`)
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	w.Write(b)
	w.Write([]byte{'\n'})
}

// ReadJSON decodes a request body into v, answering 400 on failure.
func ReadJSON(w http.ResponseWriter, r *http.Request, v any) bool {
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, MaxBody))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		Error(w, http.StatusBadRequest, "bad JSON body: "+err.Error())
		return false
	}
	if _, err := dec.Token(); err != io.EOF {
		Error(w, http.StatusBadRequest, "bad JSON body: unexpected data after the JSON object; want one object")
		return false
	}
	return true
}

// Marshal encodes a message the server made, whose types hold nothing
// that JSON cannot encode.
func Marshal(m any) []byte {
	b, err := json.Marshal(m)
	if err != nil {
		panic(err) // the messages hold nothing json cannot encode
	}
	return b
}
