package http

import (
	"net/http"
	"strconv"

	"github.com/shopstock/inventory/domain/user"
	"github.com/shopstock/inventory/ports"
)

// userJSON is a user as the API shows it: never a key or a hash.
type userJSON struct {
	ID      int64  `json:"id"`
	Name    string `json:"name"`
	Role    string `json:"role"`
	Enabled bool   `json:"enabled"`
	Digest  bool   `json:"digest"`
}

type userCreateBody struct {
	Name   string `json:"name" validate:"required"`
	Role   string `json:"role" validate:"required"`
	Digest bool   `json:"digest"`
}

type userUpdateBody struct {
	Role    *string `json:"role"`
	Enabled *bool   `json:"enabled"`
	Digest  *bool   `json:"digest"`
}

type userCreatedJSON struct {
	ID       int64  `json:"id"`
	Location string `json:"location"`
	Key      string `json:"key"`
}

type keyJSON struct {
	Key string `json:"key"`
}

func (h *Handler) userRoutes() {
	h.api("GET /api/users", h.listUsers)
	h.api("POST /api/users", h.createUser)
	h.api("GET /api/users/{id}", h.getUser)
	h.api("PUT /api/users/{id}", h.updateUser)
	h.api("DELETE /api/users/{id}", h.deleteUser)
	h.api("POST /api/users/{id}/rotateKey", h.rotateUserKey)
}

func toUserJSON(u *user.User) userJSON {
	return userJSON{ID: u.ID(), Name: u.Name(), Role: string(u.Role()), Enabled: u.Enabled(), Digest: u.Digest()}
}

func (h *Handler) listUsers(w http.ResponseWriter, r *http.Request) error {
	return writeList(w, r, ports.UserFields, h.app.Users, toUserJSON)
}

func (h *Handler) getUser(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id", "user")
	if err != nil {
		return err
	}
	u, err := h.app.User(r.Context(), id)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, dataBody[userJSON]{Success: true, Data: toUserJSON(u)})
	return nil
}

func (h *Handler) createUser(w http.ResponseWriter, r *http.Request) error {
	var body userCreateBody
	if err := h.decode(w, r, &body, "id", "enabled", "key"); err != nil {
		return err
	}
	role, err := user.ParseRole(body.Role)
	if err != nil {
		return err
	}
	id, key, err := h.app.CreateUser(r.Context(), body.Name, role, body.Digest)
	if err != nil {
		return err
	}
	c := userCreatedJSON{ID: id, Location: h.location(r, "/api/users/"+strconv.FormatInt(id, 10)), Key: key}
	w.Header().Set("Location", c.Location)
	writeJSON(w, http.StatusCreated, dataBody[userCreatedJSON]{Success: true, Data: c})
	return nil
}

func (h *Handler) updateUser(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id", "user")
	if err != nil {
		return err
	}
	var body userUpdateBody
	if err := h.decode(w, r, &body, "id", "name", "key"); err != nil {
		return err
	}
	var role *user.Role
	if body.Role != nil {
		parsed, err := user.ParseRole(*body.Role)
		if err != nil {
			return err
		}
		role = &parsed
	}
	key, err := h.app.ChangeUser(r.Context(), id, role, body.Enabled, body.Digest)
	if err != nil {
		return lastAdminNamed(err, role, body.Enabled)
	}
	if key != "" { // Digest turned on: a new key, shown only here
		writeJSON(w, http.StatusOK, dataBody[keyJSON]{Success: true, Data: keyJSON{Key: key}})
		return nil
	}
	writeJSON(w, http.StatusOK, ok)
	return nil
}

func (h *Handler) deleteUser(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id", "user")
	if err != nil {
		return err
	}
	if err := h.app.DeleteUser(r.Context(), id); err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, ok)
	return nil
}

func (h *Handler) rotateUserKey(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id", "user")
	if err != nil {
		return err
	}
	if err := emptyObject(w, r); err != nil {
		return err
	}
	key, err := h.app.RotateUserKey(r.Context(), id)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, dataBody[keyJSON]{Success: true, Data: keyJSON{Key: key}})
	return nil
}
