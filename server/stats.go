package server

import (
	"net/http"
	"stax/server/httpx"
)

func (s *Server) handleStats(w http.ResponseWriter, r *http.Request) {
	httpx.WriteJSON(w, http.StatusOK, s.Stats())
}
